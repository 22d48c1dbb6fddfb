/**
 * BM25 over a blob's chunks from passes over its text, with no index: the searches of a big
 * blob not yet indexed answer from this while the index is built in the background. Terms are
 * found by their crude stem at a word start (termPrefix, as snippets locate them), so scores
 * are close to, not equal to, FTS5's Porter-stemmed ones.
 * A BlobScan keeps what its passes learned, so the next searches of the same blob before its
 * index is done cost only the words they add: the chunk spans, and per stem the chunks where
 * it starts a word and how often.
 */
import type { Kind } from "../types";
import { chunkText } from "./chunker";
import { NAV_OVERFETCH, navigationWeight } from "./chunkFeatures";
import { queryTerms } from "./queryTerms";
import type { SearchHit } from "./searchIndex";
import { bestTermSpan, centreSnippet, termPrefix } from "./snippet";

/** FTS5's bm25() defaults. */
const K1 = 1.2;
const B = 0.75;
/** Stems whose counts are kept; past this many the oldest are forgotten (counted again if asked). */
const MAX_KEPT_STEMS = 256;

/** The chunks of a text, as parallel arrays (a 50 MB blob has tens of thousands). */
interface ChunkTable {
  n: number;
  chunk: Int32Array;
  startLine: Int32Array;
  endLine: Int32Array;
  startChar: Int32Array;
  endChar: Int32Array;
  totalChars: number;
}

/** Where one stem starts a word: the chunks (ascending) and how many times in each. */
interface Postings {
  chunks: Int32Array;
  counts: Int32Array;
}

/** Searches of one text by scanning it; what a pass learns is kept for the next searches. */
export class BlobScan {
  private table: ChunkTable | null = null;
  private readonly postings = new Map<string, Postings>();

  constructor(
    readonly content: string,
    private readonly kind: Kind,
  ) {}

  /** The best `topK` chunks for `query`, as SearchIndex.search would name them. */
  search(blobId: string, query: string, topK = 5): SearchHit[] {
    const terms = queryTerms(query);
    const { stems: prefixes, tf } = this.termFrequencies(query);
    if (prefixes.length === 0) return [];
    const table = this.table!;
    const df = tf.map((t) => t.reduce((n, f) => n + (f > 0 ? 1 : 0), 0));
    if (df.every((n) => n === 0)) return [];
    const avg = table.totalChars / Math.max(1, table.n);
    const idf = df.map((n) => Math.log((table.n - n + 0.5) / (n + 0.5) + 1));
    // The best chunks in score order, ties in chunk order: what a stable sort of every hit gives.
    const best: { c: number; score: number }[] = [];
    const keep = topK + NAV_OVERFETCH;
    for (let c = 0; c < table.n; c++) {
      let any = false;
      for (const t of tf) if (t[c]! > 0) any = true;
      if (!any) continue;
      const norm = K1 * (1 - B + (B * (table.endChar[c]! - table.startChar[c]!)) / avg);
      let score = 0;
      for (let t = 0; t < tf.length; t++) {
        const f = tf[t]![c]!;
        score = score + (f === 0 ? 0 : (idf[t]! * f * (K1 + 1)) / (f + norm));
      }
      if (best.length === keep && score <= best[keep - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { c, score });
      if (best.length > keep) best.pop();
    }
    return best
      .map(({ c, score }) => ({ c, body: this.content.slice(table.startChar[c], table.endChar[c]), score }))
      .map((x) => ({ ...x, score: x.score * navigationWeight(x.body) }))
      .toSorted((a, b) => b.score - a.score)
      .slice(0, Math.max(1, topK))
      .map(({ c, body, score }) => {
        const span = bestTermSpan(body, terms);
        return {
          blobId,
          chunk: table.chunk[c]!,
          startLine: table.startLine[c]!,
          endLine: table.endLine[c]!,
          startChar: table.startChar[c]!,
          endChar: table.endChar[c]!,
          score,
          snippet: span ? centreSnippet(body, span[0], span[1]) : centreSnippet(body, 0, 0),
        };
      });
  }

  /**
   * The stems of `query`, longest first, and per stem, per chunk (in order), the word starts it
   * takes: at a word start the longest stem of the query that matches takes the word.
   */
  termFrequencies(query: string): { stems: string[]; tf: Int32Array[] } {
    const stems = [
      ...new Set(
        queryTerms(query)
          .map(termPrefix)
          .filter((p) => p.length > 0),
      ),
    ].toSorted((a, b) => b.length - a.length);
    const table = (this.table ??= chunkTable(this.content, this.kind));
    if (stems.length === 0) return { stems, tf: [] };
    this.count(stems, table);
    return { stems, tf: claimed(stems, (p) => this.postings.get(p)!, table.n) };
  }

  /**
   * Counts, in one pass for the stems not yet counted, where each starts a word. A word start
   * the alternation gives to stem q also starts every shorter stem that q begins with: each is
   * counted there too, so a stem's counts do not depend on the query it came with.
   */
  private count(prefixes: string[], table: ChunkTable): void {
    const todo = prefixes.filter((p) => !this.postings.has(p));
    if (todo.length === 0) return;
    const escaped = todo.map((p) => p.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
    const word = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})`, "giu");
    const dense = todo.map(() => new Int32Array(table.n));
    // The stems each stem begins with, itself included: all of them start a word it takes.
    const covers = todo.map((q) => todo.flatMap((p, k) => (q.startsWith(p) ? [k] : [])));
    const content = this.content;
    let c = 0;
    for (let m = word.exec(content); m; m = word.exec(content)) {
      const at = m.index;
      while (c < table.n && table.endChar[c]! <= at) c++;
      if (c >= table.n) break;
      // Matches between chunks fell in text no chunk holds (no letter or digit there).
      if (at < table.startChar[c]!) continue;
      // Most words are written as the stem is (lower case): no lower-cased copy needed for those.
      const w = m[0];
      let q = todo.indexOf(w);
      if (q < 0) q = todo.indexOf(w.toLowerCase());
      if (q < 0) continue;
      for (const k of covers[q]!) dense[k]![c]!++;
    }
    if (this.postings.size + todo.length > MAX_KEPT_STEMS) {
      // Deleting while iterating a Map is safe: the entries removed are simply not visited.
      for (const key of this.postings.keys()) if (!prefixes.includes(key)) this.postings.delete(key);
    }
    todo.forEach((p, k) => this.postings.set(p, sparse(dense[k]!)));
  }
}

/** The best `topK` chunks of `content` for `query`, from a scan that is not kept. */
export function scanSearch(blobId: string, content: string, kind: Kind, query: string, topK = 5): SearchHit[] {
  return new BlobScan(content, kind).search(blobId, query, topK);
}

function chunkTable(content: string, kind: Kind): ChunkTable {
  const cols: number[][] = [[], [], [], [], []];
  let totalChars = 0;
  for (const c of chunkText(content, kind)) {
    cols[0]!.push(c.chunk);
    cols[1]!.push(c.startLine);
    cols[2]!.push(c.endLine);
    cols[3]!.push(c.startChar);
    cols[4]!.push(c.endChar);
    totalChars += c.endChar - c.startChar;
  }
  const [chunk, startLine, endLine, startChar, endChar] = cols.map((col) => Int32Array.from(col)) as [
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
    Int32Array,
  ];
  return { n: chunk.length, chunk, startLine, endLine, startChar, endChar, totalChars };
}

function sparse(dense: Int32Array): Postings {
  let n = 0;
  for (const v of dense) if (v > 0) n++;
  const chunks = new Int32Array(n);
  const counts = new Int32Array(n);
  for (let c = 0, k = 0; c < dense.length; c++) {
    if (dense[c]! > 0) {
      chunks[k] = c;
      counts[k++] = dense[c]!;
    }
  }
  return { chunks, counts };
}

/**
 * Per stem of the query (longest first), per chunk, the word starts it takes: its own count
 * less what the nearest longer stems of the query beginning with it take, since those win
 * those word starts (nested stems give nested sets of word starts, unrelated ones disjoint).
 */
function claimed(prefixes: string[], postingsOf: (p: string) => Postings, n: number): Int32Array[] {
  return prefixes.map((p) => {
    const out = new Int32Array(n);
    const add = (q: string, sign: number) => {
      const { chunks, counts } = postingsOf(q);
      for (let k = 0; k < chunks.length; k++) out[chunks[k]!]! += sign * counts[k]!;
    };
    add(p, 1);
    const longer = prefixes.filter((q) => q !== p && q.startsWith(p));
    for (const q of longer) if (!longer.some((r) => r !== q && q.startsWith(r))) add(q, -1);
    return out;
  });
}
