/**
 * RE2 over the whole text, converted to UTF-8 a block of lines at a time into one reused
 * Buffer. Handing RE2 the JS string instead makes it convert all 100 MB and cache the copy
 * behind a weak reference: a garbage collection between two exec() calls drops the cache and
 * the next call converts again (a 10,000-match scan took seconds). Converting into a fresh
 * 100 MB Buffer is no better, its page faults cost about 0.5 s; a reused 4 MB block stays in
 * cache and converts in a few milliseconds.
 */
import type RE2 from "re2";
import type { LineCursor, LineHit, RecordHit } from "./grepScan";

/** Cross-line matches tolerated before switching to line-by-line matching (see scanBlock). */
const MAX_CROSS_LINE = 16;
/** Chars converted per block; a block always ends at a line end, so it holds whole lines. */
const BLOCK_CHARS = 4 * 1024 * 1024;

/** Maps byte offsets in one block back to char offsets and lines of the string, moving forward only. */
class ByteMap {
  private readonly ascii: boolean;
  private byte = 0;
  private char: number;

  constructor(
    private readonly buf: Buffer,
    chars: number,
    private readonly blockChar: number,
    private readonly lines: LineCursor,
  ) {
    // Byte and char offsets coincide when the block is all ASCII.
    this.ascii = buf.length === chars;
    this.char = blockChar;
  }

  /** The hit for a line starting at byte `ls`, ending at `le`, with the match at `[ms, me)`. */
  hit(ls: number, le: number, ms: number, me: number): LineHit {
    const lineStart = this.charAt(ls);
    const chars = (a: number, b: number) => (this.ascii ? b - a : this.buf.toString("utf8", a, b).length);
    return {
      line: this.lines.lineOf(lineStart),
      lineStart,
      lineEnd: lineStart + chars(ls, le),
      matchStart: lineStart + chars(ls, ms),
      matchEnd: lineStart + chars(ls, Math.min(me, le)),
    };
  }

  /** Decodes only the bytes since the previous hit, so a block is decoded at most once. */
  private charAt(b: number): number {
    if (this.ascii) return this.blockChar + b;
    this.char += this.buf.toString("utf8", this.byte, b).length;
    this.byte = b;
    return this.char;
  }
}

/**
 * Scans from char offset `fromChar` (a line start), one hit per line. Line numbers come from
 * `lines`, which counts newlines only up to each hit, so blocks without hits cost no counting.
 */
export function bufferScan(text: string, fromChar: number, lines: LineCursor, re: RE2, line: RE2, record: RecordHit): void {
  let scratch = Buffer.allocUnsafe(BLOCK_CHARS * 3);
  const state = { crossings: 0 };
  let pos = fromChar;
  while (pos < text.length) {
    let end = Math.min(text.length, pos + BLOCK_CHARS);
    if (end < text.length) {
      const nl = text.indexOf("\n", end - 1);
      end = nl === -1 ? text.length : nl + 1;
    }
    const slice = text.slice(pos, end);
    // A UTF-16 code unit takes at most 3 UTF-8 bytes.
    if (slice.length * 3 > scratch.length) scratch = Buffer.allocUnsafe(slice.length * 3);
    const buf = scratch.subarray(0, scratch.write(slice, 0, "utf8"));
    if (!scanBlock(buf, new ByteMap(buf, slice.length, pos, lines), re, line, record, state)) return;
    pos = end;
  }
}

/**
 * One block, one hit per line; false when the caller should stop. grep is per line, but a
 * pattern like `a[\s\S]*b` can match across lines, and each such match may cost a scan to the
 * end of the block; after a few, the rest is matched line by line, slower per line but linear.
 */
function scanBlock(buf: Buffer, map: ByteMap, re: RE2, line: RE2, record: RecordHit, state: { crossings: number }): boolean {
  if (state.crossings > MAX_CROSS_LINE) return lineByLine(buf, 0, line, map, record);
  re.lastIndex = 0;
  let m: Match | null;
  while ((m = execBytes(re, buf))) {
    const b = m.index;
    // After the block's last newline there is no further line, only an empty match position.
    if (b >= buf.length && buf[buf.length - 1] === 10) return true;
    const ls = b <= 0 ? 0 : buf.lastIndexOf(10, b - 1) + 1;
    const nl = buf.indexOf(10, b);
    const le = nl === -1 ? buf.length : nl;
    let ms = b;
    let me = b + m.length;
    if (me > le) {
      const within = execBytes(line, buf.subarray(ls, le));
      if (within) {
        ms = ls + within.index;
        me = ms + within.length;
      }
      if (++state.crossings > MAX_CROSS_LINE) {
        if (within && !record(() => map.hit(ls, le, ms, me))) return false;
        return nl === -1 || lineByLine(buf, nl + 1, line, map, record);
      }
      if (!within) ms = -1;
    }
    const [s, e] = [ms, me];
    if (s >= 0 && !record(() => map.hit(ls, le, s, e))) return false;
    if (nl === -1) return true;
    re.lastIndex = nl + 1;
  }
  return true;
}

interface Match {
  /** Byte offset of the match. */
  index: number;
  /** Match length in bytes. */
  length: number;
}

/** RE2's Buffer overload: offsets and lengths in bytes, nothing converted to strings. */
function execBytes(re: RE2, buf: Buffer): Match | null {
  const m = re.exec(buf);
  return m ? { index: m.index, length: m[0].length } : null;
}

/** Matches each line of the block on its own; false when the caller should stop. */
function lineByLine(buf: Buffer, from: number, line: RE2, map: ByteMap, record: RecordHit): boolean {
  let pos = from;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    const le = nl === -1 ? buf.length : nl;
    const m = execBytes(line, buf.subarray(pos, le));
    if (m) {
      const [ls, ms] = [pos, pos + m.index];
      const me = ms + m.length;
      if (!record(() => map.hit(ls, le, ms, me))) return false;
    }
    if (nl === -1) return true;
    pos = nl + 1;
  }
  return true;
}
