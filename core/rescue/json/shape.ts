/** One-line structural shapes of JSON values, e.g. `array[2000] of object{id,date,amount,…}`. */
import { fmtInt, oneLine } from "../format";
import { entriesOf } from "./render";
import { keyText, scanContainer, valueType, type ContainerScan, type Entry } from "./scan";

const SHOW_KEYS = 6;

function clipKey(k: string): string {
  const s = oneLine(k);
  return s.length > 24 ? s.slice(0, 23) + "…" : s;
}

/** `object{a,b,c}` or `object{12 keys: a,b,c,d,…}` from an object's scan. */
function objectShape(text: string, scan: ContainerScan): string {
  const keys = scan.first.slice(0, SHOW_KEYS).map((e) => clipKey(keyText(text, e)));
  if (scan.count <= SHOW_KEYS) return `object{${keys.join(",")}}`;
  return `object{${fmtInt(scan.count)} keys: ${keys.slice(0, 4).join(",")},…}`;
}

/** Short description of one element, scanning it only if it is a container. */
function elementShape(text: string, e: Entry): string {
  const t = valueType(text, e.valStart);
  if (t === "object") return objectShape(text, scanContainer(text, e.valStart, SHOW_KEYS + 1, 0, e.valEnd));
  if (t === "array") return `array[${scanContainer(text, e.valStart, 0, 0, e.valEnd).count}]`;
  return t;
}

/** Shape of the elements of an array, from its first and last entries. */
function elementsShape(text: string, scan: ContainerScan): string {
  const sample = [...scan.first, ...scan.last];
  if (sample.length === 0) return "";
  const types = [...new Set(sample.map((e) => valueType(text, e.valStart)))];
  if (types.length > 1) return ` of mixed (${types.join(", ")})`;
  return ` of ${elementShape(text, sample[0]!)}`;
}

/** The entry holding more than half of the container's chars, if any. */
function dominant(scan: ContainerScan): Entry | undefined {
  let big: Entry | undefined;
  for (const e of [...scan.first, ...scan.last]) if (!big || e.valEnd - e.valStart > big.valEnd - big.valStart) big = e;
  return big && big.valEnd - big.valStart > (scan.end - scan.start) / 2 ? big : undefined;
}

/**
 * Shape of the container scanned in `scan`. An API envelope ({data: {items: [...]}, meta})
 * is described by its payload too, following the dominant child down a few levels.
 */
export function containerShape(text: string, scan: ContainerScan): string {
  if (scan.type === "array") return `array[${scan.count}]${elementsShape(text, scan)}`;
  let shape = objectShape(text, scan);
  let path = "";
  let cur = scan;
  for (let level = 0; level < 3 && cur.type === "object"; level++) {
    const big = dominant(cur);
    if (!big) break;
    path += "." + clipKey(keyText(text, big));
    const t = valueType(text, big.valStart);
    if (t !== "array" && t !== "object") break;
    cur = entriesOf(text, big.valStart, big.valEnd, t === "array" ? 2 : SHOW_KEYS + 1, 1, big.count);
    if (t === "array") shape += `, ${path}: array[${cur.count}]${elementsShape(text, cur)}`;
  }
  return shape;
}

/** Shape of a scalar JSON value spanning [start, end). */
export function scalarShape(text: string, start: number, end: number): string {
  const t = valueType(text, start);
  if (t === "string") return `string (${fmtInt(Math.max(0, end - start - 2))} chars)`;
  return t;
}
