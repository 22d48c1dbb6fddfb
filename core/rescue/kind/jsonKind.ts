/**
 * JSON and NDJSON detection. A document is JSON when one structural scan finds a single
 * closed container followed only by whitespace; small documents are confirmed with
 * JSON.parse, large ones by their first entry's well-formedness, so detection never parses
 * (or copies) a huge string.
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

const PARSE_BELOW = 256 * 1024;

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
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

/** JSON or NDJSON, or null when `text` is neither. */
export function detectJson(text: string): Detected | null {
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
    const kept = scanContainer(text, start, JSON_KEEP_FIRST, JSON_KEEP_LAST);
    const scan = narrowScan(kept, 8, 2);
    if (!scan.closed || skipWs(text, scan.end) < text.length) return null;
    if (text.length <= PARSE_BELOW) {
      if (!parses(text)) return null;
    } else {
      const e = scan.first[0];
      if (e && c === 123 && text.charCodeAt(e.keyStart) !== 34) return null;
      if (e && e.valEnd - e.valStart <= PARSE_BELOW && !parses(text.slice(e.valStart, e.valEnd))) return null;
    }
    return { kind: "json", shape: containerShape(text, scan), scan: kept };
  }
  if (c === 34) {
    const after = skipString(text, start);
    if (after !== end) return null;
    if (end - start <= PARSE_BELOW && !parses(text.slice(start, end))) return null;
    return { kind: "json", shape: scalarShape(text, start, end) };
  }
  if (end - start <= 64 && /^(-?\d|true|false|null)/.test(text.slice(start, start + 5)) && parses(text)) {
    return { kind: "json", shape: scalarShape(text, start, end) };
  }
  return null;
}
