/**
 * Snippets centred on a match. A chunk or a minified line can be thousands of chars; showing
 * its start would hide the reason it matched, so both grep and search cut a window around
 * the match and mark the cuts with "…".
 */
import { splitCamel } from "./queryTerms";

/** Default snippet width in chars (the window, not counting the "…" markers). */
export const SNIPPET_WIDTH = 240;

/** Text around `[from, to)` of `text`, at most `width` chars, newlines shown as "⏎". */
export function centreSnippet(text: string, from: number, to: number, width = SNIPPET_WIDTH, lo = 0, hi = text.length): string {
  const matchLen = Math.min(to - from, width);
  const side = Math.floor((width - matchLen) / 2);
  let a = Math.max(lo, from - side);
  let b = Math.min(hi, a + width);
  a = Math.max(lo, Math.min(a, b - width));
  // Do not cut a surrogate pair in half.
  if (a > lo && isLowSurrogate(text.charCodeAt(a))) a++;
  if (b < hi && isLowSurrogate(text.charCodeAt(b))) b--;
  const body = text.slice(a, b).replace(/\r?\n/g, "⏎").replace(/\t/g, " ");
  return (a > lo ? "…" : "") + body + (b < hi ? "…" : "");
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * A crude stem for locating query terms in raw text (FTS5 matched with Porter stemming, which
 * we cannot see): `configure` finds `configuration`, `retries` finds `retry`.
 */
export function termPrefix(term: string): string {
  let t = term.toLowerCase();
  if (t.length > 4 && t.endsWith("ies")) t = t.slice(0, -3);
  else if (t.length > 3 && t.endsWith("s") && !t.endsWith("ss")) t = t.slice(0, -1);
  return t.length <= 4 ? t : t.slice(0, Math.max(4, t.length - 2));
}

interface Occurrence {
  at: number;
  end: number;
  term: number;
}

/**
 * The occurrence of a query term around which the most distinct terms cluster (rarer terms
 * weigh more), as `[from, to)`; null when no term occurs in `text`.
 */
export function bestTermSpan(text: string, terms: readonly string[], radius = SNIPPET_WIDTH / 2): [number, number] | null {
  const prefixes = terms.map(termPrefix);
  const occ: Occurrence[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    const parts = [word, ...splitCamel(word)];
    let offset = 0;
    for (const part of parts) {
      const lower = part.toLowerCase();
      const at = part === word ? m.index : m.index + word.indexOf(part, offset);
      if (part !== word) offset = at - m.index + part.length;
      const term = prefixes.findIndex((p) => p.length > 0 && lower.startsWith(p));
      if (term >= 0) {
        occ.push({ at, end: at + part.length, term });
        break;
      }
    }
  }
  if (occ.length === 0) return null;
  const freq = terms.map(() => 0);
  for (const o of occ) freq[o.term]!++;
  const weight = freq.map((f) => (f > 0 ? 1 + 1 / f : 0));
  let best = occ[0]!;
  let bestScore = -1;
  // Sliding window over occurrences sorted by position: O(occurrences × terms).
  let lo = 0;
  let hi = 0;
  const inWindow = terms.map(() => 0);
  for (const o of occ) {
    while (hi < occ.length && occ[hi]!.at <= o.at + radius) inWindow[occ[hi++]!.term]!++;
    while (occ[lo]!.at < o.at - radius) inWindow[occ[lo++]!.term]!--;
    let score = 0;
    for (let t = 0; t < terms.length; t++) if (inWindow[t]! > 0) score += weight[t]!;
    if (score > bestScore) {
      bestScore = score;
      best = o;
    }
  }
  return [best.at, best.end];
}
