/**
 * Finds matching lines without splitting the text into lines: the whole blob is scanned once
 * (a V8 literal prefilter, or RE2 in global multiline mode) and match offsets are turned into
 * line numbers by counting newlines between consecutive matches.
 */
import type RE2 from "re2";
import type { CompiledPattern } from "./grepPattern";

/** One matching line; offsets are char offsets into the blob, the match clamped to its line. */
export interface LineHit {
  line: number;
  lineStart: number;
  lineEnd: number;
  matchStart: number;
  matchEnd: number;
}

export interface ScanResult {
  hits: LineHit[];
  /** Matching lines counted (hits plus those only counted), at most `countCap`. */
  matchedLines: number;
  /** true when counting stopped at `countCap` (there may be more). */
  countCapped: boolean;
}

export interface ScanOptions {
  fromLine: number;
  /** Lines whose details are collected. */
  maxHits: number;
  /** Lines counted in all before giving up on an exact total. */
  countCap: number;
}

/** Once this many prefilter candidates turn up, dense candidates switch to a plain RE2 scan. */
const PREFILTER_PROBE = 2_000;
/** Candidates per char above which RE2 over the whole rest of the text is cheaper. */
const PREFILTER_MAX_DENSITY = 1 / 4_000;

/** Advances a (offset, line) cursor by counting newlines, so only the text between hits is walked. */
class LineCursor {
  offset = 0;
  line = 0;
  constructor(private readonly text: string) {}
  lineOf(offset: number): number {
    let i = this.text.indexOf("\n", this.offset);
    while (i !== -1 && i < offset) {
      this.line++;
      i = this.text.indexOf("\n", i + 1);
    }
    this.offset = offset;
    return this.line;
  }
}

/** Char offset where line `line` starts (the text length when there is no such line). */
export function offsetOfLine(text: string, line: number): number {
  let pos = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf("\n", pos);
    if (nl === -1 || nl + 1 >= text.length) return text.length;
    pos = nl + 1;
  }
  return pos;
}

/** Scans `text` for lines matching a compiled pattern. */
export function scanLines(text: string, pat: Extract<CompiledPattern, { ok: true }>, opts: ScanOptions): ScanResult {
  const start = offsetOfLine(text, opts.fromLine);
  const cursor = new LineCursor(text);
  cursor.offset = start;
  cursor.line = opts.fromLine;
  const res: ScanResult = { hits: [], matchedLines: 0, countCapped: false };
  const record = (lineStart: number, lineEnd: number, ms: number, me: number): boolean => {
    if (res.hits.length < opts.maxHits) {
      res.hits.push({ line: cursor.lineOf(lineStart), lineStart, lineEnd, matchStart: ms, matchEnd: Math.min(me, lineEnd) });
    }
    res.matchedLines++;
    if (res.matchedLines >= opts.countCap) res.countCapped = true;
    return !res.countCapped;
  };
  if (text.length === 0) return res;
  let resumeAt = start;
  if (pat.prefilter) {
    const r = prefilterScan(text, start, pat.prefilter, pat.line, record);
    if (r === null) return res;
    resumeAt = r;
  }
  regexScan(text, resumeAt, pat.re, pat.line, record);
  return res;
}

type Record = (lineStart: number, lineEnd: number, ms: number, me: number) => boolean;

/**
 * Literal candidates first, RE2 on each candidate line. Returns null when done, or the line
 * start from which a whole-text RE2 scan should take over (candidates too dense to pay off).
 */
function prefilterScan(text: string, from: number, pre: RegExp, line: RE2, record: Record): number | null {
  pre.lastIndex = from;
  let candidates = 0;
  let m: RegExpExecArray | null;
  while ((m = pre.exec(text))) {
    const lineStart = lineStartOf(text, m.index);
    if (++candidates === PREFILTER_PROBE && candidates / (m.index - from + 1) > PREFILTER_MAX_DENSITY) return lineStart;
    const nl = text.indexOf("\n", m.index);
    const lineEnd = nl === -1 ? text.length : nl;
    const hit = line.exec(text.slice(lineStart, lineEnd));
    if (hit && !record(lineStart, lineEnd, lineStart + hit.index, lineStart + hit.index + hit[0].length)) return null;
    if (nl === -1) return null;
    pre.lastIndex = nl + 1;
  }
  return null;
}

/** Cross-line matches tolerated before switching to line-by-line matching (see regexScan). */
const MAX_CROSS_LINE = 16;

/**
 * RE2 over the whole text (the string is converted for RE2 once), one hit per line. grep is
 * per line, but a pattern like `a[\s\S]*b` can match across lines, and each such match may
 * cost a scan to the end of the text; after a few, the rest is matched line by line, which
 * is slower per line but linear.
 */
function regexScan(text: string, from: number, re: RE2, line: RE2, record: Record): void {
  re.lastIndex = from;
  let crossings = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    // After a trailing newline there is no further line, only an empty match position.
    if (m.index >= text.length && text.endsWith("\n")) return;
    const lineStart = lineStartOf(text, m.index);
    const nl = text.indexOf("\n", m.index);
    const lineEnd = nl === -1 ? text.length : nl;
    let ms = m.index;
    let me = m.index + m[0].length;
    if (me > lineEnd) {
      const within = line.exec(text.slice(lineStart, lineEnd));
      if (within) {
        ms = lineStart + within.index;
        me = ms + within[0].length;
      }
      if (++crossings > MAX_CROSS_LINE) {
        if (within && !record(lineStart, lineEnd, ms, me)) return;
        if (nl !== -1) lineByLine(text, nl + 1, line, record);
        return;
      }
      if (!within) ms = -1;
    }
    if (ms >= 0 && !record(lineStart, lineEnd, ms, me)) return;
    if (nl === -1) return;
    re.lastIndex = nl + 1;
  }
}

function lineByLine(text: string, from: number, line: RE2, record: Record): void {
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const lineEnd = nl === -1 ? text.length : nl;
    const m = line.exec(text.slice(pos, lineEnd));
    if (m && !record(pos, lineEnd, pos + m.index, pos + m.index + m[0].length)) return;
    if (nl === -1) return;
    pos = nl + 1;
  }
}

function lineStartOf(text: string, i: number): number {
  return i <= 0 ? 0 : text.lastIndexOf("\n", i - 1) + 1;
}
