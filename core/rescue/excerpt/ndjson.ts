/**
 * NDJSON / JSONL excerpt: the first and last records, plus records promoted for error or
 * failure words (structured logs put `"level":"error"` deep in the stream). Long records are
 * shown as a pruned structure instead of a clipped character run.
 */
import { renderValue } from "../json/render";
import { skipWs } from "../format";
import { linesExcerpt } from "./plain";

/** A record as shown: short ones verbatim, long ones pretty-printed and pruned. */
function recordUnit(line: string): string {
  if (line.length <= 300) return line;
  const s = skipWs(line);
  const c = line.charCodeAt(s);
  if (c !== 123 && c !== 91) return line;
  return renderValue(line, s, line.length, "", 1);
}

/** Excerpt of newline-delimited JSON. */
export function ndjsonExcerpt(text: string, cap: number): string {
  return linesExcerpt(text, cap, { anchors: true, headMax: 5, tailMax: 3, unit: recordUnit, noun: "records" });
}
