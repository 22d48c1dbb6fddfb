/**
 * Anchor lines: error, failure, fatal, panic, exception, traceback and non-zero exit-code
 * lines, promoted into an excerpt from anywhere in a result.
 *
 * Matching is by whole word, where a word is a run of [A-Za-z0-9_]: "error", "errors",
 * "Error:", "ERROR", "failed", "FAIL" count; "terrorist", "mirror", "stderr_handler" and
 * "error_count" do not. CamelCase names ending in Error/Exception ("TypeError",
 * "AssertionError", "IOException") count, as the outline module treats them as signals too.
 * A zero count ("0 errors", "failed: 0", "no failures") is not a signal.
 */

const SIGNAL_WORDS = new Set([
  "error",
  "errors",
  "errored",
  "fail",
  "fails",
  "failed",
  "failing",
  "failure",
  "failures",
  "fatal",
  "panic",
  "panics",
  "panicked",
  "exception",
  "exceptions",
  "traceback",
]);

/** Candidate substrings; each hit is then checked as a whole word on its line. */
const CANDIDATE = /error|fail|fatal|panic|exception|traceback|exit|ERR/gi;
const CAMEL_SIGNAL = /^[A-Za-z0-9]*[A-Za-z0-9](?:Error|Exception)s?$/;
const EXIT = /\bexit(?:ed)?(?: with)?(?: exit)? (?:code|status)[\s:=]*(-?\d+)/i;

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * Whether the candidate hit at `index` (length `len`) in `text` is a signal. Returns the end
 * of the word inspected (negative when it is not a signal) so callers can skip past it.
 * Only the word and a few chars around it are read, so the cost per hit is constant.
 */
function hitSignal(text: string, index: number, len: number): number {
  let s = index;
  let e = index + len;
  while (s > 0 && s > index - 64 && isWordChar(text.charCodeAt(s - 1))) s--;
  while (e < text.length && e < index + 64 && isWordChar(text.charCodeAt(e))) e++;
  const word = text.slice(s, e);
  if (word.length >= 4 && word.slice(0, 4).toLowerCase() === "exit" && s === index) {
    const x = EXIT.exec(text.slice(index, index + 48));
    return x && Number(x[1]) !== 0 ? e : -e;
  }
  if (SIGNAL_WORDS.has(word.toLowerCase())) {
    // "0 errors", "no failures", "errors: 0", "failed=0" report the absence of a problem.
    if (/(?:^|[^\w.])(?:0|no|zero)[ \t]+$/i.test(text.slice(Math.max(0, s - 8), s))) return -e;
    if (/^[ \t]*[:=][ \t]*0(?!\d|\.\d)/.test(text.slice(e, e + 8))) return -e;
    return e;
  }
  if (word === "ERR") return e;
  return CAMEL_SIGNAL.test(word) && word !== "Error" && word !== "Exception" ? e : -e;
}

/** Whether a single line is an anchor line. */
export function isAnchorLine(line: string): boolean {
  const re = new RegExp(CANDIDATE.source, "gi");
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) {
    const r = hitSignal(line, m.index, m[0].length);
    if (r > 0) return true;
    re.lastIndex = Math.max(m.index + 1, -r);
  }
  return false;
}

export interface Anchor {
  /** 0-based line number of the first occurrence. */
  line: number;
  /** The line, or for very long lines a window of it around the signal. */
  text: string;
  /** Where the signal word starts inside `text`. */
  hit: number;
  /** Near-identical lines folded into this one (1 = unique). */
  count: number;
  /** The last of the folded lines, when there are several: where a repeated failure stops. */
  last?: { line: number; text: string; hit: number };
}

export interface AnchorScan {
  anchors: Anchor[];
  /** Anchor lines found in total, including folded repeats and those past the keep limit. */
  total: number;
}

/**
 * Key under which near-identical lines fold: a hash of the line's first 160 chars with runs
 * of digits and hex ignored (timestamps, counters, ids), spacing collapsed and case folded.
 * A hand loop and a numeric key, because a log can hold hundreds of thousands of anchors.
 */
export function foldKey(text: string, from: number, to: number): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x2545f491;
  const end = Math.min(to, from + 160);
  let prevSpace = true;
  for (let i = from; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // A number or hex id: one placeholder for the whole run.
      while (i + 1 < end && isHexish(text.charCodeAt(i + 1))) i++;
      c = 35;
    } else if (c === 32 || c === 9 || c === 13) {
      if (prevSpace) continue;
      prevSpace = true;
      c = 32;
    } else if (c >= 65 && c <= 90) c += 32;
    if (c !== 32) prevSpace = false;
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}

function isHexish(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 120;
}

/**
 * Find anchor lines in `text` with one regex pass for candidates (no line array is built),
 * keeping the first `keep` distinct lines in line order.
 */
export function findAnchors(text: string, keep = 200): AnchorScan {
  const anchors: Anchor[] = [];
  const byKey = new Map<number, Anchor>();
  // The last repeat of each folded anchor, as offsets: its text is cut once, after the scan.
  const lastAt = new Map<Anchor, { line: number; ws: number; we: number; hit: number }>();
  let total = 0;
  let line = 0;
  let counted = 0; // newlines before this offset are already counted into `line`
  const re = new RegExp(CANDIDATE.source, "gi");
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const r = hitSignal(text, m.index, m[0].length);
    if (r < 0) {
      re.lastIndex = Math.max(m.index + 1, -r);
      continue;
    }
    const ls = text.lastIndexOf("\n", m.index) + 1;
    let le = text.indexOf("\n", m.index);
    if (le === -1) le = text.length;
    for (let i = text.indexOf("\n", counted); i !== -1 && i < ls; i = text.indexOf("\n", i + 1)) line++;
    counted = ls;
    total++;
    // Very long lines (minified blobs) keep only a window around the signal.
    const ws = le - ls <= 4000 ? ls : Math.max(ls, m.index - 1000);
    const we = le - ls <= 4000 ? le : Math.min(le, m.index + 1000);
    const seen = byKey.get(foldKey(text, ws, we));
    if (seen) {
      seen.count++;
      lastAt.set(seen, { line, ws, we, hit: m.index - ws });
    } else if (anchors.length < keep) {
      const a: Anchor = { line, text: text.slice(ws, we), hit: m.index - ws, count: 1 };
      anchors.push(a);
      byKey.set(foldKey(text, ws, we), a);
    }
    if (le >= text.length) break;
    re.lastIndex = le + 1;
  }
  for (const [a, l] of lastAt) a.last = { line: l.line, text: text.slice(l.ws, l.we), hit: l.hit };
  return { anchors, total };
}
