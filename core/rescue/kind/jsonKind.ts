/**
 * JSON and NDJSON detection. A document is JSON when one structural scan finds a single
 * closed container followed only by whitespace; small documents are confirmed with
 * JSON.parse, bigger ones by the well-formedness of the entries the scan kept (the first and
 * last few), so detection never parses (or copies) a big string: on a 194 k document the
 * whole-text parse cost more than the scan itself, on every rescue.
 */
import type { Kind } from "../../types";
import { fmtInt, skipWs, trimEndIndex } from "../format";
import { narrowScan, scanContainer, skipString, type ContainerScan } from "../json/scan";
import { containerShape, scalarShape } from "../json/shape";

export interface Detected {
  kind: Kind;
  shape: string;
  /** The top-level container's scan (first JSON_KEEP_FIRST, last JSON_KEEP_LAST entries), for the excerpt. */
  scan?: ContainerScan;
}

/** Entries the detection keeps of a JSON container: as many as the excerpt shows (json excerpt's nHead, nTail). */
export const JSON_KEEP_FIRST = 40;
export const JSON_KEEP_LAST = 5;

/** Documents up to this long are confirmed whole with JSON.parse. */
const PARSE_WHOLE_BELOW = 16 * 1024;
/** Above it, each kept entry up to this long is parsed (within PARSE_ENTRIES_BUDGET chars in all); longer ones rest on the scan. */
const PARSE_ENTRY_BELOW = 64 * 1024;
const PARSE_ENTRIES_BUDGET = 256 * 1024;

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Whether the entries a scan kept are well-formed: object keys are JSON strings, values parse. */
function keptEntriesParse(text: string, scan: ContainerScan): boolean {
  const isObj = scan.type === "object";
  let budget = PARSE_ENTRIES_BUDGET;
  for (const e of [...scan.first, ...scan.last]) {
    if (isObj && (text.charCodeAt(e.keyStart) !== 34 || !parses(text.slice(e.keyStart, e.keyEnd)))) return false;
    const n = e.valEnd - e.valStart;
    if (n > PARSE_ENTRY_BELOW || n > budget) continue;
    budget -= n;
    if (!parses(text.slice(e.valStart, e.valEnd))) return false;
  }
  return true;
}

/** Whether the line [s, e) is one complete JSON container. */
function isRecordLine(text: string, s: number, e: number): boolean {
  s = skipWs(text, s);
  const c = text.charCodeAt(s);
  if (c !== 123 && c !== 91) return false;
  const scan = scanContainer(text, s, 0, 0, e);
  return scan.closed && skipWs(text, scan.end) >= e;
}

/** NDJSON: the first few non-blank lines are each one complete container. */
function detectNdjson(text: string, start: number): Detected | null {
  let s = start;
  let records = 0;
  let firstRecordStart = -1;
  while (s < text.length && records < 5) {
    let e = text.indexOf("\n", s);
    if (e === -1) e = text.length;
    if (skipWs(text, s) < e) {
      if (!isRecordLine(text, s, e)) return null;
      if (firstRecordStart === -1) firstRecordStart = skipWs(text, s);
      records++;
    }
    s = e + 1;
  }
  if (records < 2) return null;
  let count = 0;
  for (let i = 0; i < text.length;) {
    let e = text.indexOf("\n", i);
    if (e === -1) e = text.length;
    if (skipWs(text, i) < e) count++;
    i = e + 1;
  }
  const lineEnd = text.indexOf("\n", firstRecordStart);
  const first = scanContainer(text, firstRecordStart, 8, 1, lineEnd === -1 ? text.length : lineEnd);
  const of = containerShape(text, first).replace(/^array\[\d+\]( of)?/, "array$1");
  return { kind: "ndjson", shape: `${fmtInt(count)} records of ${of}` };
}

/** JSON or NDJSON, or null when `text` is neither. `utf8`: its UTF-8 bytes, when at hand (the scan then reads bytes if it is ASCII). */
export function detectJson(text: string, utf8?: Uint8Array): Detected | null {
  const start = skipWs(text);
  if (start >= text.length) return null;
  const c = text.charCodeAt(start);
  const end = trimEndIndex(text, start);
  if (c === 123 || c === 91) {
    const nl = text.indexOf("\n", start);
    if (nl !== -1 && nl < end) {
      const nd = detectNdjson(text, start);
      if (nd) return nd;
    }
    const ascii = utf8 !== undefined && utf8.length === text.length ? utf8 : undefined;
    const kept = scanContainer(text, start, JSON_KEEP_FIRST, JSON_KEEP_LAST, text.length, -1, ascii);
    const scan = narrowScan(kept, 8, 2);
    if (!scan.closed || skipWs(text, scan.end) < text.length) return null;
    if (!(text.length <= PARSE_WHOLE_BELOW ? parses(text) : keptEntriesParse(text, kept))) return null;
    return { kind: "json", shape: containerShape(text, scan), scan: kept };
  }
  if (c === 34) {
    const after = skipString(text, start);
    if (after !== end) return null;
    if (end - start <= PARSE_ENTRIES_BUDGET && !parses(text.slice(start, end))) return null;
    return { kind: "json", shape: scalarShape(text, start, end) };
  }
  if (end - start <= 64 && /^(-?\d|true|false|null)/.test(text.slice(start, start + 5)) && parses(text)) {
    return { kind: "json", shape: scalarShape(text, start, end) };
  }
  return null;
}
