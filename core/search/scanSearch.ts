/**
 * BM25 over a blob's chunks in one pass over its text, with no index: the first search of a
 * big blob not yet indexed answers from this while the index is built in the background.
 * Terms are found by their crude stem at a word start (termPrefix, as snippets locate them),
 * so scores are close to, not equal to, FTS5's Porter-stemmed ones.
 */
import type { Kind } from "../types";
import { chunkText } from "./chunker";
import { isNavigation } from "./chunkFeatures";
import { queryTerms } from "./queryTerms";
import type { SearchHit } from "./searchIndex";
import { bestTermSpan, centreSnippet, termPrefix } from "./snippet";

/** FTS5's bm25() defaults. */
const K1 = 1.2;
const B = 0.75;
const NAV_PENALTY = 0.5;
const NAV_OVERFETCH = 8;

interface Scored {
  chunk: number;
  startLine: number;
  endLine: number;
  startChar: number;
  endChar: number;
  tf: number[];
}

/** The best `topK` chunks of `content` for `query`, as SearchIndex.search would name them. */
export function scanSearch(blobId: string, content: string, kind: Kind, query: string, topK = 5): SearchHit[] {
  const terms = queryTerms(query);
  // Longest first: the alternation takes the first stem that matches at a word start.
  const prefixes = [...new Set(terms.map(termPrefix).filter((p) => p.length > 0))].toSorted((a, b) => b.length - a.length);
  if (prefixes.length === 0) return [];
  const escaped = prefixes.map((p) => p.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  const word = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})`, "giu");
  const df = prefixes.map(() => 0);
  const hit: Scored[] = [];
  let chunks = 0;
  let totalChars = 0;
  let m = word.exec(content);
  for (const c of chunkText(content, kind)) {
    chunks++;
    totalChars += c.endChar - c.startChar;
    // Matches before this chunk fell in text no chunk holds (no letter or digit there).
    while (m && m.index < c.startChar) m = word.exec(content);
    if (!m || m.index >= c.endChar) continue;
    const tf = prefixes.map(() => 0);
    while (m && m.index < c.endChar) {
      const lower = m[0].toLowerCase();
      const t = prefixes.findIndex((p) => p === lower);
      if (t >= 0) tf[t]!++;
      m = word.exec(content);
    }
    tf.forEach((n, t) => n > 0 && df[t]!++);
    hit.push({ chunk: c.chunk, startLine: c.startLine, endLine: c.endLine, startChar: c.startChar, endChar: c.endChar, tf });
  }
  if (hit.length === 0) return [];
  const avg = totalChars / Math.max(1, chunks);
  const idf = df.map((n) => Math.log((chunks - n + 0.5) / (n + 0.5) + 1));
  const bm25 = (s: Scored) => {
    const norm = K1 * (1 - B + (B * (s.endChar - s.startChar)) / avg);
    return s.tf.reduce((sum, f, t) => sum + (f === 0 ? 0 : (idf[t]! * f * (K1 + 1)) / (f + norm)), 0);
  };
  return hit
    .map((s) => ({ s, score: bm25(s) }))
    .toSorted((a, b) => b.score - a.score)
    .slice(0, topK + NAV_OVERFETCH)
    .map(({ s, score }) => ({ s, body: content.slice(s.startChar, s.endChar), score }))
    .map((x) => ({ ...x, score: x.score * (isNavigation(x.body) ? NAV_PENALTY : 1) }))
    .toSorted((a, b) => b.score - a.score)
    .slice(0, Math.max(1, topK))
    .map(({ s, body, score }) => {
      const span = bestTermSpan(body, terms);
      return {
        blobId,
        chunk: s.chunk,
        startLine: s.startLine,
        endLine: s.endLine,
        startChar: s.startChar,
        endChar: s.endChar,
        score,
        snippet: span ? centreSnippet(body, span[0], span[1]) : centreSnippet(body, 0, 0),
      };
    });
}
