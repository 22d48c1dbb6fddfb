/**
 * Pages of a blob's text for the viewer: a window of lines (very long lines cut) or a span of
 * chars. The browser never receives a large blob at once; it asks for the window it shows.
 */
import { lineOfOffset } from "../../text/lines";
import type { ContentPage } from "../api/dto";

/** A text being paged through, with the char offset of each line's start (the engine's line convention). */
export interface CachedText {
  text: string;
  starts: number[];
}

/** Lines per page at most, and chars per page at most (whatever the unit asked for). */
export const MAX_PAGE_LINES = 20_000;
export const MAX_PAGE_CHARS = 4_000_000;

export interface PageRequest {
  id: string;
  by: "lines" | "chars";
  start: number;
  count: number;
  maxLineChars: number;
  anchorLine?: number;
}

/** End (exclusive, without its "\n") of line `i`. */
function lineEnd(v: CachedText, i: number): number {
  const next = v.starts[i + 1];
  if (next !== undefined) return next - 1;
  return v.text.endsWith("\n") ? v.text.length - 1 : v.text.length;
}

export function contentPage(v: CachedText, req: PageRequest, masked: boolean): ContentPage {
  const totalLines = v.starts.length;
  const base = { id: req.id, masked, totalLines, totalChars: v.text.length };
  if (req.by === "chars") {
    const anchor = req.anchorLine !== undefined ? (v.starts[Math.min(req.anchorLine, totalLines - 1)] ?? 0) : 0;
    const start = Math.min(anchor + req.start, v.text.length);
    const end = Math.min(v.text.length, start + Math.min(req.count, MAX_PAGE_CHARS));
    return {
      ...base,
      by: "chars",
      start,
      end,
      startChar: start,
      firstLine: lineAt(v, start),
      text: v.text.slice(start, end),
      cutLines: [],
    };
  }
  const start = Math.min(req.start, totalLines);
  const wanted = Math.min(start + Math.min(req.count, MAX_PAGE_LINES), totalLines);
  const parts: string[] = [];
  const cutLines: { line: number; chars: number }[] = [];
  let used = 0;
  let end = start;
  for (; end < wanted; end++) {
    const from = v.starts[end]!;
    const to = lineEnd(v, end);
    const len = to - from;
    const shown = Math.min(len, req.maxLineChars);
    if (end > start && used + shown > MAX_PAGE_CHARS) break;
    parts.push(v.text.slice(from, from + shown));
    if (shown < len) cutLines.push({ line: end, chars: len });
    used += shown + 1;
  }
  const startChar = start < totalLines ? v.starts[start]! : v.text.length;
  return { ...base, by: "lines", start, end, startChar, firstLine: start, text: parts.join("\n"), cutLines };
}

/** The 0-based line holding char offset `offset` of the view. */
export function lineAt(v: CachedText, offset: number): number {
  return v.starts.length === 0 ? 0 : lineOfOffset(v.starts, offset);
}
