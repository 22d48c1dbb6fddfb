/** Renders a JSON/NDJSON summary as model-facing text, one line per path in JMESPath syntax. */
import { fmtCount, fmtStat, quote } from "./answer";
import { summarizeJson, type JsonSummary } from "./jsonSummary";
import type { JsonType, ShapeNode } from "./shapeNode";

/** Path lines at most; the rest is counted. */
const MAX_PATH_LINES = 150;
/** Distinct strings shown as top values when a path has at most this many. */
const SHOW_VALUES_UNDER = 12;

/** The JSON outline of `text` (NDJSON when `kind` is "ndjson"). */
export function jsonOutline(text: string, kind: "json" | "ndjson"): string {
  const sum = summarizeJson(text, { sequence: kind === "ndjson" });
  const lines = [header(sum, kind)];
  const paths: string[] = [];
  walk(sum.root, "@", undefined, paths);
  lines.push(...paths.slice(0, MAX_PATH_LINES));
  if (paths.length > MAX_PATH_LINES)
    lines.push(`… ${fmtCount(paths.length - MAX_PATH_LINES)} more paths not shown; use query to look deeper`);
  lines.push('Paths are JMESPath: use them with query, e.g. query expression="length(@)".');
  return lines.join("\n");
}

function header(sum: JsonSummary, kind: "json" | "ndjson"): string {
  const what =
    kind === "ndjson"
      ? `NDJSON outline: ${fmtCount(sum.records)} records, ${fmtCount(sum.totalChars)} chars`
      : `JSON outline: ${fmtCount(sum.totalChars)} chars`;
  if (sum.error) {
    return `${what}; invalid JSON at char ${sum.error.at} (${sum.error.message}), so the statistics cover only the ${fmtCount(sum.error.at)} chars before it`;
  }
  if (sum.scannedChars < sum.totalChars) {
    return `${what}; sampled: statistics cover the first ${fmtCount(sum.scannedChars)} of ${fmtCount(sum.totalChars)} chars`;
  }
  return `${what}; exact: every value scanned`;
}

function walk(node: ShapeNode, path: string, parentObjects: number | undefined, out: string[]): void {
  const seen = [...node.types.values()].reduce((a, b) => a + b, 0);
  if (seen === 0) return;
  const count = parentObjects !== undefined && seen < parentObjects ? `in ${fmtCount(seen)} of ${fmtCount(parentObjects)}` : fmtCount(seen);
  out.push(`${path} (${count}): ${describe(node)}`);
  const objects = node.types.get("object") ?? 0;
  for (const [key, child] of node.keys) walk(child, join(path, key), objects, out);
  if (node.other && node.otherKeyNames) {
    const names = [...node.otherKeyNames]
      .slice(0, 3)
      .map((k) => quote(k, 30))
      .join(", ");
    const more = `${fmtCount(node.otherKeyNames.size)}${node.otherKeyOverflow ? "+" : ""}`;
    out.push(`${join(path, "*")}: ${more} more keys (${names}, …), values merged below`);
    walk(node.other, join(path, "*"), undefined, out);
  }
  if (node.items) walk(node.items, path === "@" ? "[]" : `${path}[]`, undefined, out);
}

function join(path: string, key: string): string {
  const k = key === "*" || /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return path === "@" ? k : `${path}.${k}`;
}

const ORDER: JsonType[] = ["object", "array", "number", "string", "boolean", "null"];

/** `integer min 1 max 2000 mean 1000.5`, or several types with their counts. */
export function describe(node: ShapeNode): string {
  const types = ORDER.filter((t) => node.types.has(t)).toSorted((a, b) => node.types.get(b)! - node.types.get(a)!);
  const multi = types.length > 1;
  return types.map((t) => (multi ? `${fmtCount(node.types.get(t)!)}× ` : "") + describeType(node, t)).join("; ");
}

function describeType(node: ShapeNode, t: JsonType): string {
  switch (t) {
    case "object":
      return `object{${span(node.obj?.min, node.obj?.max)} ${node.obj?.max === 1 ? "key" : "keys"}}`;
    case "array": {
      const a = node.arr;
      if (!a) return "array";
      return `array[${span(a.min, a.max)}]${a.min !== a.max ? ` mean length ${fmtStat(a.total / a.n)}` : ""}`;
    }
    case "number": {
      const s = node.num!;
      if (s.n === 1) return `${s.ints === 1 ? "integer" : "number"} ${fmtStat(s.sum)}`;
      return `${s.ints === s.n ? "integer" : "number"} min ${fmtStat(s.min)} max ${fmtStat(s.max)} mean ${fmtStat(s.sum / s.n)}`;
    }
    case "string":
      return describeStrings(node.str!);
    case "boolean":
      return `boolean (true ${fmtCount(node.bool!.t)}, false ${fmtCount(node.bool!.f)})`;
    case "null":
      return "null";
  }
}

function describeStrings(s: NonNullable<ShapeNode["str"]>): string {
  const d = s.values.size;
  const len = s.maxLen > 40 ? `, length ${span(s.minLen, s.maxLen)}` : "";
  const only = [...s.values.keys()][0];
  if (s.n === 1 && only !== undefined && !only.startsWith("\u0000")) return `string ${quote(only, 60)}`;
  if (s.capped) return `string, ${fmtCount(d)}+ distinct${len}`;
  if (d === s.n && s.n > 1) return `string, all distinct${len}`;
  const top = [...s.values].filter(([v]) => !v.startsWith("\u0000")).toSorted((a, b) => b[1] - a[1]);
  if (d <= SHOW_VALUES_UNDER) {
    return `string, ${d} distinct: ${top.map(([v, n]) => `${quote(v, 40)} ${fmtCount(n)}`).join(", ")}${len}`;
  }
  const common = top.slice(0, 3).filter(([, n]) => n > 1);
  return `string, ${fmtCount(d)} distinct${common.length ? `, most common ${common.map(([v, n]) => `${quote(v, 40)} ${fmtCount(n)}`).join(", ")}` : ""}${len}`;
}

function span(min: number | undefined, max: number | undefined): string {
  if (min === undefined || max === undefined) return "?";
  return min === max ? String(min) : `${min}–${max}`;
}
