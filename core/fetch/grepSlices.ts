/**
 * grep over a TextDoc a window of whole lines at a time: a stored blob is read in slices, and
 * the scan stops once the answer is full and the matches after it have been counted through a
 * bounded span ("at least N"), instead of reading and scanning the whole rest of the blob.
 */
import type { TextDoc } from "../text/textDoc";
import type { CompiledPattern } from "./grepPattern";
import { scanLines, type LineHit } from "./grepScan";

/** The first window; each next one doubles, up to WINDOW_MAX_CHARS. */
const WINDOW_MIN_CHARS = 64 * 1024;
const WINDOW_MAX_CHARS = 1024 * 1024;
/** Once the answer is full, further matches are counted through this many more chars only. */
export const COUNT_AHEAD_CHARS = 256 * 1024;

export interface SliceScanOptions {
  fromLine: number;
  /** Hits collected at most. */
  maxHits: number;
  /** Matching lines counted at most. */
  countCap: number;
  /** Chars of formatted hits past which the answer is full. */
  fullChars: number;
  /** Formats a hit while its window is at hand: `text` is the window, `h` local to it, `base`/`baseLine` where it starts. */
  format(text: string, h: LineHit, base: number, baseLine: number): string;
}

export interface SliceScan {
  /** Formatted hits with their (blob) line numbers. */
  items: { line: number; text: string }[];
  /** Matching lines counted (items plus those only counted). */
  matchedLines: number;
  /** true when counting stopped at `countCap`. */
  countCapped: boolean;
  /** The last line counted when counting stopped at the bounded span (the blob goes on); null when it did not. */
  countedThrough: number | null;
}

/** Scans `doc` from line `fromLine` (which must exist) for lines matching `pat`. */
export function scanSlices(doc: TextDoc, pat: Extract<CompiledPattern, { ok: true }>, opts: SliceScanOptions): SliceScan {
  const res: SliceScan = { items: [], matchedLines: 0, countCapped: false, countedThrough: null };
  let pos = doc.lineOffset(opts.fromLine);
  let line = opts.fromLine;
  let used = 0;
  let countUntil = Infinity;
  let size = WINDOW_MIN_CHARS;
  while (pos < doc.length && !res.countCapped) {
    const limit = Math.min(pos + size, countUntil);
    if (limit <= pos) {
      res.countedThrough = line - 1;
      break;
    }
    size = Math.min(WINDOW_MAX_CHARS, size * 2);
    let w = doc.slice(pos, limit);
    if (pos + w.length < doc.length) {
      const k = w.lastIndexOf("\n");
      // A line longer than the window is read whole: its hit needs its length.
      w = k !== -1 ? w.slice(0, k + 1) : doc.slice(pos, doc.lineEnd(line) + 1);
    }
    const scan = scanLines(w, pat, {
      fromLine: 0,
      maxHits: Math.max(0, opts.maxHits - res.items.length),
      countCap: opts.countCap - res.matchedLines,
    });
    for (const h of scan.hits) {
      const text = opts.format(w, h, pos, line);
      res.items.push({ line: line + h.line, text });
      used += text.length + 1;
      // Full: what follows is only counted, through a bounded span.
      if (countUntil === Infinity && (used > opts.fullChars || res.items.length >= opts.maxHits))
        countUntil = pos + h.lineEnd + COUNT_AHEAD_CHARS;
    }
    res.matchedLines += scan.matchedLines;
    res.countCapped = res.matchedLines >= opts.countCap;
    line += newlines(w);
    pos += w.length;
  }
  return res;
}

function newlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
