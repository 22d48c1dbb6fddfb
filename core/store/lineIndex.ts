/**
 * The line-offset index kept beside a blob (`<id>.lines`): checkpoints (line, char, byte) at
 * every 64th line start and at least every 4,096 chars (inside long lines too), so any line or
 * char offset is found by reading at most a few KB from its checkpoint. Built once from the
 * verified text; a file that fails its checksum or does not fit its row is rebuilt.
 */
import { createHash } from "node:crypto";

const MAGIC = 0x5357_4c49; // "SWLI"
const VERSION = 1;
const HEADER = 6; // magic, version, chars, bytes, lines, count
const FIELDS = 4; // line, char, byte, starts a line (1) or not (0)
const STEP_LINES = 64;
/** Chars at most between two checkpoints: bounds what a lookup reads past the bytes it returns. */
export const STEP_CHARS = 4096;

export interface Checkpoint {
  line: number;
  char: number;
  byte: number;
  lineStart: boolean;
}

export class LineIndex {
  constructor(
    readonly chars: number,
    readonly bytes: number,
    readonly lines: number,
    private readonly cps: Float64Array,
  ) {}

  get count(): number {
    return this.cps.length / FIELDS;
  }

  at(i: number): Checkpoint {
    const o = i * FIELDS;
    return { line: this.cps[o]!, char: this.cps[o + 1]!, byte: this.cps[o + 2]!, lineStart: this.cps[o + 3] === 1 };
  }

  /** The last checkpoint at or before char `offset`. */
  beforeChar(offset: number): number {
    return this.lastWhere((i) => this.cps[i * FIELDS + 1]! <= offset);
  }

  /** The first checkpoint at or after char `offset`, or -1 (then the text's end bounds it). */
  afterChar(offset: number): number {
    const i = this.lastWhere((k) => this.cps[k * FIELDS + 1]! < offset) + 1;
    return i < this.count ? i : -1;
  }

  /** The checkpoint from which line `n`'s start is reached: its own when it has one, else the last before it. */
  beforeLine(n: number): number {
    const first = this.lastWhere((k) => this.cps[k * FIELDS]! < n) + 1;
    if (first < this.count && this.cps[first * FIELDS] === n && this.cps[first * FIELDS + 3] === 1) return first;
    return Math.max(0, first - 1);
  }

  /** The last checkpoint on line `n` or before it. */
  lastOnLine(n: number): number {
    return this.lastWhere((k) => this.cps[k * FIELDS]! <= n);
  }

  /** Binary search: the last index where `pred` holds (pred is true then false along the array); 0 when none. */
  private lastWhere(pred: (i: number) => boolean): number {
    let lo = 0;
    let hi = this.count - 1;
    if (!pred(0)) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pred(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Builds the index of a UTF-8 blob's text and its file form. */
export function buildLineIndex(text: string): { index: LineIndex; data: Buffer } {
  const cps: number[] = [0, 0, 0, 1];
  let cpChar = 0;
  let cpByte = 0;
  let line = 0;
  let pos = 0;
  const add = (char: number, lineStart: boolean): number => {
    cpByte += Buffer.byteLength(text.slice(cpChar, char), "utf8");
    cps.push(line, char, cpByte, lineStart ? 1 : 0);
    return char;
  };
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    while (end - cpChar > STEP_CHARS) {
      let c = cpChar + STEP_CHARS;
      const code = text.charCodeAt(c - 1);
      if (code >= 0xd800 && code <= 0xdbff) c++; // never between the halves of a surrogate pair
      cpChar = add(c, false);
    }
    if (nl === -1) break;
    pos = nl + 1;
    if (pos >= text.length) break;
    line++;
    if (line % STEP_LINES === 0 || pos - cpChar >= STEP_CHARS) cpChar = add(pos, true);
  }
  const bytes = cpByte + Buffer.byteLength(text.slice(cpChar), "utf8");
  const lines = text.length === 0 ? 0 : line + 1;
  const index = new LineIndex(text.length, bytes, lines, Float64Array.from(cps));
  return { index, data: encode(index, cps) };
}

function encode(index: LineIndex, cps: number[]): Buffer {
  const body = Buffer.from(Float64Array.from([MAGIC, VERSION, index.chars, index.bytes, index.lines, index.count, ...cps]).buffer);
  return Buffer.concat([body, createHash("sha256").update(body).digest()]);
}

/** The index in `data`, or null when the file is damaged, of another version, or not of a text of these sizes. */
export function parseLineIndex(data: Buffer, chars: number, bytes: number): LineIndex | null {
  if (data.length < HEADER * 8 + 32 || (data.length - 32) % 8 !== 0) return null;
  const body = data.subarray(0, data.length - 32);
  if (
    !createHash("sha256")
      .update(body)
      .digest()
      .equals(data.subarray(data.length - 32))
  )
    return null;
  const f = new Float64Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
  if (f[0] !== MAGIC || f[1] !== VERSION || f[2] !== chars || f[3] !== bytes) return null;
  const count = f[5]!;
  if (count < 1 || f.length !== HEADER + count * FIELDS) return null;
  return new LineIndex(f[2]!, f[3]!, f[4]!, f.subarray(HEADER));
}
