/**
 * The strings seen at one path of a JSON outline: lengths, and the count of each distinct
 * value up to MAX_DISTINCT. A 50 MB array of records has millions of string values, and
 * counting each one by a new sliced string (a copy, a hash, a Map lookup) was half of the
 * outline's time: a value written without escapes is found instead by its text in place,
 * through a small hash table over the document's chars.
 */

/** Distinct string values tracked per path (the count is then a lower bound). */
export const MAX_DISTINCT = 500;
/** Strings longer than this are tracked by a hash, never shown as a top value. */
export const TRACK_LEN = 120;
/** Slots of the table: a power of two over twice MAX_DISTINCT, so probes stay short. */
const SLOTS = 1024;

export class StringStats {
  n = 0;
  minLen: number;
  maxLen: number;
  /** Set once a value beyond MAX_DISTINCT was seen; values are then no longer counted (the outline shows only how many). */
  capped = false;
  private readonly order: string[] = [];
  private readonly counts: number[] = [];
  private readonly index = new Map<string, number>();
  /** 1 + the index in `order` of a value written without escapes, at the slot of its hashRaw. */
  private readonly slots = new Int32Array(SLOTS);

  constructor(len: number) {
    this.minLen = len;
    this.maxLen = len;
  }

  /** Distinct values (long ones by a key starting with U+0000) and their counts, in the order first seen. */
  get values(): Map<string, number> {
    return new Map(this.order.map((v, i) => [v, this.counts[i]!]));
  }

  /** Counts one value of `len` chars; its value is counted next, by count or countRaw, unless capped. */
  length(len: number): void {
    this.n++;
    if (len < this.minLen) this.minLen = len;
    if (len > this.maxLen) this.maxLen = len;
  }

  /** Counts the decoded value `v`. */
  count(v: string): void {
    const key = v.length <= TRACK_LEN ? v : `\u0000${v.length}:${hash(v)}`;
    const seen = this.index.get(key);
    if (seen !== undefined) this.counts[seen]!++;
    else if (this.order.length < MAX_DISTINCT) {
      this.index.set(key, this.order.length);
      this.order.push(key);
      this.counts.push(1);
    } else this.capped = true;
  }

  /** Counts the value written without escapes as `t[from, to)`, whose hashRaw is `h` (not -1). */
  countRaw(t: string, from: number, to: number, h: number): void {
    const len = to - from;
    for (let s = h & (SLOTS - 1); ; s = (s + 1) & (SLOTS - 1)) {
      const at = this.slots[s]! - 1;
      if (at < 0) {
        // Not yet seen written this way: counted by its value, then found in place next time.
        const v = t.slice(from, to);
        this.count(v);
        const idx = this.index.get(v);
        if (idx !== undefined) this.slots[s] = idx + 1;
        return;
      }
      const cand = this.order[at]!;
      if (cand.length === len && t.startsWith(cand, from)) {
        this.counts[at]!++;
        return;
      }
    }
  }
}

/** The hash countRaw takes for `t[from, to)`, or -1 when that span holds a backslash or is longer than TRACK_LEN. */
export function hashRaw(t: string, from: number, to: number): number {
  if (to - from > TRACK_LEN) return -1;
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) return -1;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

/** FNV-1a, enough to count long strings as distinct without keeping them. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
