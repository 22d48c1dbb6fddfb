/**
 * A linear-time line diff for near-duplicate results (Heckel's 1978 method: lines unique to
 * both sides anchor the match, which then spreads to equal neighbours), tuned for tool output
 * that is re-run: test logs whose timings, timestamps and temp paths change on every run.
 *
 * Lines are compared by a key with those volatile spans blanked, so a line that only changed
 * its timing still matches; such pairs are reported as `volatile`, not as changes. Crossing
 * matches (moved blocks) are dropped to keep the script an ordered edit, so a move shows as a
 * delete plus an insert: more lines, never a wrong picture.
 */

/*
 * Volatile spans: what differs between two runs of the same command without saying anything
 * about the result. ISO and clock timestamps, durations ("12ms", "2.31s", "41m12s", "(12 ms)"),
 * temp paths, long hex ids and UUIDs. Counts ("41 passed, 1 failed") are not among them: a
 * changed count is a real change. Found by one scan of the line (a regex with these
 * alternatives tried at every position cost ~6 µs a line; this is a fraction of that).
 */
const UNIT_SUFFIX = /^\d+(?:[.,]\d+)?(?:ns|µs|us|ms|s|sec|secs|m|min|h)(?:\d+(?:[.,]\d+)?(?:ns|µs|us|ms|s|m))*$/;
const UNIT_WORD = /^ (?:ns|µs|us|ms|s|sec|secs|seconds|min|mins|minutes)\b/;
const NUMBER = /^\d+(?:[.,]\d+)*$/;
const HEX_ID = /^[0-9a-f]{8,}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEMP_PREFIXES = ["/tmp/", "/var/folders/", "/var/tmp/", "/private/var/", "\\Temp\\", "\\tmp\\"];

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** Ends a path: whitespace, quotes, brackets, separators. */
function endsPath(c: number): boolean {
  return c <= 32 || c === 34 || c === 39 || c === 40 || c === 41 || c === 44 || c === 59 || c === 93 || c === 96;
}

/** Whether a token that starts a word is volatile. */
function volatileToken(tok: string): boolean {
  if (tok.length === 36 && UUID.test(tok)) return true;
  if (isDigit(tok.charCodeAt(0))) {
    if (NUMBER.test(tok)) return false;
    // Times ("09:14:02", "10.0.3.7:5432"), dates ("2024-05-14T02:00Z"), durations, hex.
    return tok.includes(":") || /^\d{4}-\d\d-\d\d/.test(tok) || UNIT_SUFFIX.test(tok) || (tok.length >= 6 && /^[0-9a-f]+$/i.test(tok));
  }
  return HEX_ID.test(tok) && /\d/.test(tok);
}

/** The line with its volatile spans blanked: the key lines are matched by. */
export function volatileKey(line: string): string {
  let out = "";
  let from = 0;
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if ((c === 47 || c === 92) && TEMP_PREFIXES.some((p) => line.startsWith(p, i))) {
      let j = i + 1;
      while (j < n && !endsPath(line.charCodeAt(j))) j++;
      out += line.slice(from, i) + "\u0000";
      from = i = j;
      continue;
    }
    if (!isAlnum(c) || (i > 0 && (isAlnum(line.charCodeAt(i - 1)) || line.charCodeAt(i - 1) === 95))) {
      i++;
      continue;
    }
    // A token: alphanumerics, joined by . : - + where an alphanumeric follows.
    let j = i + 1;
    while (j < n) {
      const d = line.charCodeAt(j);
      if (isAlnum(d) || d === 95) j++;
      else if ((d === 46 || d === 58 || d === 45 || d === 43 || d === 44) && j + 1 < n && isAlnum(line.charCodeAt(j + 1))) j += 2;
      else break;
    }
    const tok = line.slice(i, j);
    let end = j;
    let hit = volatileToken(tok);
    if (!hit && NUMBER.test(tok)) {
      const unit = UNIT_WORD.exec(line.slice(j, j + 9));
      if (unit) {
        hit = true;
        end = j + unit[0].length;
      }
    }
    if (hit) {
      out += line.slice(from, i) + "\u0000";
      from = end;
    }
    i = end;
  }
  return from === 0 ? line : out + line.slice(from);
}

/** A run of changed lines: old lines [oldStart, oldEnd) replaced by new lines [newStart, newEnd). */
export interface Hunk {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export interface LineDiff {
  hunks: Hunk[];
  /** Lines removed plus lines added. */
  changed: number;
  /** Matched lines whose text differs only in volatile spans (timings, temp paths…): [old, new] line pairs. */
  volatile: [number, number][];
}

/** Interns keys of lines [from, to) to small integers; one table per comparison, so equal keys get equal numbers. */
function intern(lines: string[], from: number, to: number, table: Map<string, number>, keyOf: (line: string) => string): Int32Array {
  const out = new Int32Array(to - from);
  for (let i = from; i < to; i++) {
    const key = keyOf(lines[i]!);
    let n = table.get(key);
    if (n === undefined) {
      n = table.size;
      table.set(key, n);
    }
    out[i - from] = n;
  }
  return out;
}

const exact = (line: string) => line;

/** For each new line, the old line it matches, or -1. Linear in the number of lines. */
function match(a: Int32Array, b: Int32Array, symbols: number): Int32Array {
  const toOld = new Int32Array(b.length).fill(-1);
  const toNew = new Int32Array(a.length).fill(-1);
  const link = (i: number, j: number) => {
    toOld[j] = i;
    toNew[i] = j;
  };
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) {
    link(pre, pre);
    pre++;
  }
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) {
    link(a.length - 1 - suf, b.length - 1 - suf);
    suf++;
  }
  const aEnd = a.length - suf;
  const bEnd = b.length - suf;
  // Occurrences of each key in the middle of each side; where both are 1 the lines anchor.
  const inA = new Int32Array(symbols);
  const inB = new Int32Array(symbols);
  const lastA = new Int32Array(symbols);
  for (let i = pre; i < aEnd; i++) {
    inA[a[i]!]!++;
    lastA[a[i]!] = i;
  }
  for (let j = pre; j < bEnd; j++) inB[b[j]!]!++;
  for (let j = pre; j < bEnd; j++) if (inA[b[j]!] === 1 && inB[b[j]!] === 1) link(lastA[b[j]!]!, j);
  // Spread each match to equal neighbours, forwards then backwards.
  for (let j = pre; j < bEnd - 1; j++) {
    const i = toOld[j]!;
    if (i >= 0 && i + 1 < aEnd && toOld[j + 1] === -1 && toNew[i + 1] === -1 && a[i + 1] === b[j + 1]) link(i + 1, j + 1);
  }
  for (let j = bEnd - 1; j > pre; j--) {
    const i = toOld[j]!;
    if (i > pre && toOld[j - 1] === -1 && toNew[i - 1] === -1 && a[i - 1] === b[j - 1]) link(i - 1, j - 1);
  }
  // Keep an increasing subsequence of the matches, greedily: an ordered edit script.
  let last = -1;
  for (let j = 0; j < b.length; j++) {
    const i = toOld[j]!;
    if (i < 0) continue;
    if (i > last) last = i;
    else toOld[j] = -1;
  }
  return toOld;
}

/**
 * For each new line, the old line it matches. Exact lines first (one hash per line: the common
 * case of a few changed lines costs little more); then, inside each stretch left unmatched,
 * lines are matched again by their volatile keys.
 */
function matchLines(oldLines: string[], newLines: string[]): Int32Array {
  const table = new Map<string, number>();
  const a = intern(oldLines, 0, oldLines.length, table, exact);
  const b = intern(newLines, 0, newLines.length, table, exact);
  const toOld = match(a, b, table.size);
  let i = 0;
  let j = 0;
  while (j < newLines.length) {
    if (toOld[j]! >= 0) {
      i = toOld[j]! + 1;
      j++;
      continue;
    }
    let nj = j;
    while (nj < newLines.length && toOld[nj] === -1) nj++;
    const ni = nj < newLines.length ? toOld[nj]! : oldLines.length;
    if (ni > i) {
      const t = new Map<string, number>();
      const sa = intern(oldLines, i, ni, t, volatileKey);
      const sb = intern(newLines, j, nj, t, volatileKey);
      const sub = match(sa, sb, t.size);
      for (let k = 0; k < sub.length; k++) if (sub[k]! >= 0) toOld[j + k] = i + sub[k]!;
    }
    i = ni;
    j = nj;
  }
  return toOld;
}

/** The edit from `oldLines` to `newLines`, or null when more than `maxChanged` lines change. */
export function diffLines(oldLines: string[], newLines: string[], maxChanged = Infinity): LineDiff | null {
  const toOld = matchLines(oldLines, newLines);
  const hunks: Hunk[] = [];
  let changed = 0;
  const volatile: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < oldLines.length || j < newLines.length) {
    if (j < newLines.length && toOld[j] === i) {
      if (oldLines[i] !== newLines[j]) volatile.push([i, j]);
      i++;
      j++;
      continue;
    }
    // Up to the next matched pair (or the ends), everything between is changed.
    let nj = j;
    while (nj < newLines.length && toOld[nj] === -1) nj++;
    const ni = nj < newLines.length ? toOld[nj]! : oldLines.length;
    hunks.push({ oldStart: i, oldEnd: ni, newStart: j, newEnd: nj });
    changed += ni - i + (nj - j);
    if (changed > maxChanged) return null;
    i = ni;
    j = nj;
  }
  return { hunks, changed, volatile };
}
