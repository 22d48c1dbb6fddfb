/**
 * Turns a plain-language question into FTS5 terms. Models ask questions ("how do I configure
 * the retry timeout?"), not FTS syntax: every word is quoted (so `-`, `*`, `NEAR`, `:` and
 * quotes lose their FTS meaning), stopwords are dropped, and terms are ORed so BM25 ranks
 * chunks by how many and how rare the matched words are.
 */

const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or " +
    "other our ours ourselves out over own same she should so some such than that the their theirs them themselves then " +
    "there these they this those through to too under until up very was we were what when where which while who whom why " +
    "will with would you your yours yourself yourselves " +
    // question and request filler that carries no topic
    "please tell show explain give find anything something thing things way ways want need know there's whats what's " +
    "happen happens happened does did"
  ).split(/\s+/),
);

const MAX_TERMS = 32;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-case search terms of `query`: camelCase split as well as whole (not ids mixing letters and digits), stopwords dropped. */
export function queryTerms(query: string): string[] {
  const words: string[] = [];
  for (const m of query.normalize("NFKC").matchAll(WORD)) {
    const w = m[0];
    words.push(w.toLowerCase());
    // Letters mixed with digits are an id, a hash, a token or an error code, searched whole: their
    // pieces (`Sup3rS3cret` → `3`, `r`, `cret`) match unrelated text everywhere.
    if (/\p{N}/u.test(w) && /\p{L}/u.test(w)) continue;
    const parts = splitCamel(w).filter((p) => p.length > 1);
    if (parts.length > 1) for (const p of parts) words.push(p.toLowerCase());
  }
  const kept = words.filter((w) => !STOPWORDS.has(w));
  // A question made only of stopwords ("what is this?") still searches with what it has.
  const chosen = kept.length > 0 ? kept : words;
  return [...new Set(chosen)].slice(0, MAX_TERMS);
}

/** The FTS5 MATCH expression for terms: each quoted, ORed. */
export function ftsMatchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}

/** `retryTimeoutMs` → `retry`, `Timeout`, `Ms`; `HTTPServer` → `HTTP`, `Server`. */
export function splitCamel(word: string): string[] {
  return word.match(/\p{Lu}+(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+/gu) ?? [word];
}

/**
 * The terms worth ranking with: rarest first, dropping terms that match nothing, and adding
 * more common ones only while their total matches stay within `budget` (the rarest matching
 * term is always kept). `df(term)` is the number of chunks in scope that contain the term.
 */
export function selectTerms(terms: readonly string[], df: (term: string) => number, budget: number): string[] {
  const counted = terms.map((t) => ({ t, n: df(t) })).filter((x) => x.n > 0);
  counted.sort((a, b) => a.n - b.n);
  const kept: string[] = [];
  let total = 0;
  for (const { t, n } of counted) {
    if (kept.length > 0 && total + n > budget) break;
    kept.push(t);
    total += n;
  }
  return kept;
}
