/**
 * Streaming structural scan of JSON text. It never builds values: it walks brackets and
 * strings once, counts a container's entries and remembers the spans of only the first and
 * last few, so a 50 MB minified document costs one linear pass and no extra memory.
 * Depth is a counter, not recursion, so hostile nesting cannot overflow the stack.
 */

/** One entry of a container: for objects the key span too (quotes included). */
export interface Entry {
  index: number;
  keyStart: number;
  keyEnd: number;
  valStart: number;
  valEnd: number;
  /** Direct children of the value when it is a container (counted in the same pass), else -1. */
  count: number;
}

export interface ContainerScan {
  type: "array" | "object";
  start: number;
  /** Index just past the closing bracket; `text.length` when unterminated. */
  end: number;
  /** False when the container is unterminated or its brackets do not match. */
  closed: boolean;
  count: number;
  first: Entry[];
  /** The last entries (never overlapping `first`), in order. */
  last: Entry[];
}

const QUOTE = 34;
const BACKSLASH = 92;

/** Index just past the closing quote of the string opening at `i`, or -1 if unterminated. */
export function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q === -1) return -1;
    let bs = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) bs++;
    if ((bs & 1) === 0) return q + 1;
    j = q + 1;
  }
}

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipWsFrom(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Trim trailing whitespace of the span ending (exclusive) at `end`. */
function trimBack(text: string, start: number, end: number): number {
  while (end > start && isWs(text.charCodeAt(end - 1))) end--;
  return end;
}

/** Keeps the first and last few entries of a scan (a class, not a closure, so V8 keeps it monomorphic). */
class Keeper {
  readonly first: Entry[] = [];
  private readonly ring: Entry[] = [];
  private pos = 0;
  count = 0;
  private readonly nFirst: number;
  private readonly nLast: number;
  constructor(nFirst: number, nLast: number) {
    this.nFirst = nFirst;
    this.nLast = nLast;
  }

  add(keyStart: number, keyEnd: number, valStart: number, valEnd: number, inner: number): void {
    const e: Entry = { index: this.count, keyStart, keyEnd, valStart, valEnd: valEnd === -1 ? valStart : valEnd, count: inner };
    if (this.first.length < this.nFirst) this.first.push(e);
    else if (this.nLast > 0) {
      if (this.ring.length < this.nLast) this.ring.push(e);
      else this.ring[this.pos] = e;
      this.pos = (this.pos + 1) % this.nLast;
    }
    this.count++;
  }

  last(): Entry[] {
    const r = this.ring;
    return r.length < this.nLast ? r : [...r.slice(this.pos), ...r.slice(0, this.pos)];
  }
}

/** Commas seen at the top level of the container last passed to `skipNested`. */
let nestedCommas = 0;

/**
 * Index just past the container opening at `i` (or -1 when unterminated before `limit`),
 * counting its direct commas into `nestedCommas`. This tight loop is where big documents
 * spend their time, so it does nothing but track strings and depth.
 */
function skipNested(text: string, i: number, limit: number): number {
  let d = 1;
  let commas = 0;
  i++;
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < limit) {
        const x = text.charCodeAt(i);
        if (x === QUOTE) break;
        i += x === BACKSLASH ? 2 : 1;
      }
    } else if (c === 123 || c === 91) d++;
    else if (c === 125 || c === 93) {
      if (--d === 0) {
        nestedCommas = commas;
        return i + 1;
      }
    } else if (c === 44 && d === 1) commas++;
    i++;
  }
  nestedCommas = commas;
  return -1;
}

/**
 * `skipNested` over the text's bytes, for an ASCII text whose UTF-8 bytes the caller holds
 * (byte i is char i): indexing bytes is about twice as fast in V8 as `charCodeAt`, and this
 * loop is most of a big document's scan. Kept beside its twin so the two stay the same walk.
 */
function skipNestedBytes(b: Uint8Array, i: number, limit: number): number {
  let d = 1;
  let commas = 0;
  i++;
  while (i < limit) {
    const c = b[i]!;
    if (c === QUOTE) {
      i++;
      while (i < limit) {
        const x = b[i]!;
        if (x === QUOTE) break;
        i += x === BACKSLASH ? 2 : 1;
      }
    } else if (c === 123 || c === 91) d++;
    else if (c === 125 || c === 93) {
      if (--d === 0) {
        nestedCommas = commas;
        return i + 1;
      }
    } else if (c === 44 && d === 1) commas++;
    i++;
  }
  nestedCommas = commas;
  return -1;
}

/**
 * Scan the container opening at `start` (text[start] is `{` or `[`), keeping the first
 * `nFirst` and last `nLast` entries. `limit` bounds the scan (exclusive); with `maxCount` > 0
 * the scan stops after that many entries (then `end`, `closed` and `count` are partial).
 * `ascii`: the text's UTF-8 bytes when it is ASCII (see skipNestedBytes), else undefined.
 */
export function scanContainer(
  text: string,
  start: number,
  nFirst: number,
  nLast: number,
  limit = text.length,
  maxCount = -1,
  ascii?: Uint8Array,
): ContainerScan {
  const isObj = text.charCodeAt(start) === 123;
  const keep = new Keeper(nFirst, nLast);
  let closed = false;
  let mismatch = false;
  // The entry being read.
  let keyStart = -1;
  let keyEnd = -1;
  let valStart = -1;
  let valEnd = -1;
  let inner = -1;
  let i = start + 1;

  while (i < limit) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
    } else if (c === QUOTE) {
      const after = skipString(text, i);
      const stop = after === -1 || after > limit ? limit : after;
      if (isObj && keyStart === -1 && valStart === -1) {
        keyStart = i;
        keyEnd = stop;
      } else if (valStart === -1) {
        valStart = i;
        valEnd = stop;
      }
      i = stop;
    } else if (c === 123 || c === 91) {
      const after = ascii ? skipNestedBytes(ascii, i, limit) : skipNested(text, i, limit);
      if (valStart === -1) {
        valStart = i;
        valEnd = after === -1 ? limit : after;
        // Count direct children in the same pass: commas + 1, unless the container is empty.
        const next = skipWsFrom(text, i + 1);
        const ch = text.charCodeAt(next);
        inner = after !== -1 && (ch === 125 || ch === 93) && next === after - 1 ? 0 : nestedCommas + 1;
      }
      i = after === -1 ? limit : after;
    } else if (c === 125 || c === 93) {
      if ((c === 125) !== isObj) mismatch = true;
      if (valStart !== -1) keep.add(keyStart, keyEnd, valStart, valEnd, inner);
      closed = true;
      i++;
      break;
    } else if (c === 44) {
      if (valStart !== -1) keep.add(keyStart, keyEnd, valStart, valEnd, inner);
      keyStart = keyEnd = valStart = valEnd = inner = -1;
      if (keep.count === maxCount) break;
      i++;
    } else if (c === 58) {
      i++;
    } else {
      // A bare token (number, literal, or junk): up to the next delimiter.
      const s0 = i;
      while (i < limit) {
        const x = text.charCodeAt(i);
        if (x === 44 || x === 125 || x === 93 || x === 58 || x === QUOTE || x === 123 || x === 91) break;
        i++;
      }
      if (valStart === -1) {
        valStart = s0;
        valEnd = trimBack(text, s0, i);
      }
    }
  }
  if (!closed && valStart !== -1 && keep.count !== maxCount) keep.add(keyStart, keyEnd, valStart, valEnd, inner);
  return {
    type: isObj ? "object" : "array",
    start,
    end: closed ? i : limit,
    closed: closed && !mismatch,
    count: keep.count,
    first: keep.first,
    last: keep.last(),
  };
}

/**
 * What `scanContainer(text, scan.start, nFirst, nLast)` returns, taken from a `scan` that kept
 * at least as many first and last entries: one pass over a big document serves both the kind
 * detection and the excerpt.
 */
export function narrowScan(scan: ContainerScan, nFirst: number, nLast: number): ContainerScan {
  const all = [...scan.first, ...scan.last];
  return {
    ...scan,
    first: all.filter((e) => e.index < nFirst),
    last: nLast > 0 ? all.filter((e) => e.index >= nFirst && e.index >= scan.count - nLast) : [],
  };
}

/**
 * The last `n` entries of the closed container spanning [start, end) whose entry count is
 * already known, found by scanning backwards from its closing bracket. This avoids a second
 * full pass over a huge child: a quote is escaped iff an odd run of backslashes precedes it,
 * which reads the same in both directions.
 */
export function lastEntries(text: string, start: number, end: number, n: number, count: number): Entry[] {
  const isObj = text.charCodeAt(start) === 123;
  const bounds: number[] = [end - 1]; // separators at depth 1, right to left
  let depth = 1;
  let j = end - 2;
  while (j > start && bounds.length <= n) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      let k = text.lastIndexOf('"', j - 1);
      while (k > start && isEscaped(text, k)) k = text.lastIndexOf('"', k - 1);
      if (k <= start) break;
      j = k - 1;
      continue;
    }
    if (c === 125 || c === 93) depth++;
    else if (c === 123 || c === 91) depth--;
    else if (c === 44 && depth === 1) bounds.push(j);
    j--;
  }
  if (bounds.length <= n) bounds.push(start);
  const out: Entry[] = [];
  for (let b = Math.min(n, bounds.length - 1); b >= 1; b--) {
    let s = skipWsFrom(text, bounds[b]! + 1);
    const e = trimBack(text, s, bounds[b - 1]!);
    let keyStart = -1;
    let keyEnd = -1;
    if (isObj && text.charCodeAt(s) === QUOTE) {
      keyStart = s;
      keyEnd = skipString(text, s);
      if (keyEnd === -1 || keyEnd > e) keyEnd = e;
      s = skipWsFrom(text, keyEnd);
      if (text.charCodeAt(s) === 58) s = skipWsFrom(text, s + 1);
    }
    if (s >= e) continue;
    out.push({ index: count - b, keyStart, keyEnd, valStart: s, valEnd: e, count: -1 });
  }
  return out;
}

function isEscaped(text: string, q: number): boolean {
  let bs = 0;
  for (let k = q - 1; k >= 0 && text.charCodeAt(k) === BACKSLASH; k--) bs++;
  return (bs & 1) === 1;
}

/** The raw text of an object key without its quotes (escapes left as written). */
export function keyText(text: string, e: Entry): string {
  if (e.keyStart < 0) return "";
  const end = text.charCodeAt(e.keyEnd - 1) === QUOTE && e.keyEnd - 1 > e.keyStart ? e.keyEnd - 1 : e.keyEnd;
  return text.slice(e.keyStart + 1, end);
}

/** The JSON type of the value starting at `i`, from its first char. */
export function valueType(text: string, i: number): string {
  const c = text.charCodeAt(i);
  if (c === 123) return "object";
  if (c === 91) return "array";
  if (c === QUOTE) return "string";
  if (c === 116 || c === 102) return "boolean";
  if (c === 110) return "null";
  if (c === 45 || (c >= 48 && c <= 57)) return "number";
  return "unknown";
}
