/**
 * Finds matching lines without splitting the text into lines: the whole blob is scanned once
 * (a V8 literal prefilter, or RE2 in global multiline mode, see grepBufferScan) and match
 * offsets are turned into line numbers by counting newlines between consecutive matches.
 */
import type RE2 from "re2";
import { bufferScan } from "./grepBufferScan";
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
export class LineCursor {
  constructor(
    private readonly text: string,
    public offset = 0,
    public line = 0,
  ) {}
  /** The line containing `offset`; offsets must not go backwards. */
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

/** Records one matching line; `hit` is only called when the details are kept. False: stop. */
export type RecordHit = (hit: () => LineHit) => boolean;

/** Scans `text` for lines matching a compiled pattern. */
export function scanLines(text: string, pat: Extract<CompiledPattern, { ok: true }>, opts: ScanOptions): ScanResult {
  const res: ScanResult = { hits: [], matchedLines: 0, countCapped: false };
  if (text.length === 0) return res;
  const start = offsetOfLine(text, opts.fromLine);
  const record: RecordHit = (hit) => {
    if (res.hits.length < opts.maxHits) res.hits.push(hit());
    res.matchedLines++;
    if (res.matchedLines >= opts.countCap) res.countCapped = true;
    return !res.countCapped;
  };
  const cursor = new LineCursor(text, start, opts.fromLine);
  let resumeAt = start;
  if (pat.prefilter) {
    const r = prefilterScan(text, start, pat.prefilter, pat.literal ? null : pat.line, cursor, record);
    if (r === null) return res;
    resumeAt = r;
  }
  bufferScan(text, resumeAt, cursor, pat.re, pat.line, record);
  return res;
}

/**
 * Literal candidates first, RE2 on each candidate line (none when the pattern is that literal).
 * Returns null when done, or the line start from which a whole-text RE2 scan should take over
 * (candidates too dense to pay off).
 */
function prefilterScan(text: string, from: number, pre: RegExp, line: RE2 | null, cursor: LineCursor, record: RecordHit): number | null {
  pre.lastIndex = from;
  let candidates = 0;
  let m: RegExpExecArray | null;
  while ((m = pre.exec(text))) {
    const lineStart = m.index <= 0 ? 0 : text.lastIndexOf("\n", m.index - 1) + 1;
    // Dense candidates each cost an RE2 call: one RE2 pass is cheaper then (a literal costs none).
    if (++candidates === PREFILTER_PROBE && line && candidates / (m.index - from + 1) > PREFILTER_MAX_DENSITY) return lineStart;
    const nl = text.indexOf("\n", m.index);
    const lineEnd = nl === -1 ? text.length : nl;
    // A literal pattern needs no RE2 call: the candidate is the line's first match.
    const hit = line ? line.exec(text.slice(lineStart, lineEnd)) : null;
    if (hit || !line) {
      const matchStart = hit ? lineStart + hit.index : m.index;
      const matchEnd = hit ? matchStart + hit[0].length : m.index + m[0].length;
      if (!record(() => ({ line: cursor.lineOf(lineStart), lineStart, lineEnd, matchStart, matchEnd }))) return null;
    }
    if (nl === -1) return null;
    pre.lastIndex = nl + 1;
  }
  return null;
}
