/**
 * BM25 search over blob chunks with SQLite FTS5. Chunk text lives in the FTS table itself
 * so the inspector's global search can cut snippets without loading blobs. Each blob gets a
 * sequence number and its chunks the rowids `seq * 2^21 + chunk`, so a per-blob search is a
 * rowid range that FTS5 applies inside the index instead of filtering every match.
 */
import DatabaseCtor, { type Database, type Statement } from "better-sqlite3";
import type { Kind } from "../types";
import { chunkText, type Chunk } from "./chunker";
import { extraTerms, NAV_OVERFETCH, navigationWeight } from "./chunkFeatures";
import { ftsMatchExpression, queryTerms, selectTerms } from "./queryTerms";
import { bestTermSpan, centreSnippet } from "./snippet";

/** Schema of the search index; core/store runs it as one numbered migration. */
export const searchMigrationSql = `
CREATE TABLE IF NOT EXISTS search_blobs (
  seq INTEGER PRIMARY KEY,
  blob_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  chunks INTEGER NOT NULL DEFAULT 0,
  chars INTEGER NOT NULL DEFAULT 0,
  complete INTEGER NOT NULL DEFAULT 0
);
CREATE VIRTUAL TABLE IF NOT EXISTS search_chunks USING fts5(
  body,
  extra,
  start_line UNINDEXED,
  end_line UNINDEXED,
  start_char UNINDEXED,
  end_char UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO search_chunks(search_chunks, rank) VALUES ('rank', 'bm25(1.0, 0.5)');
`;

/** One ranked chunk. Lines are 0-based and inclusive; chars are `[startChar, endChar)`. */
export interface SearchHit {
  blobId: string;
  chunk: number;
  startLine: number;
  endLine: number;
  startChar: number;
  endChar: number;
  /** BM25 relevance, higher is better (FTS5's rank negated). */
  score: number;
  snippet: string;
}

/** The search index on a store's own connection (its tables live in the same SQLite file). */
export function openSearchIndex(store: { readonly db: Database }): SearchIndex {
  return new SearchIndex(store.db);
}

/** A throwaway in-memory index (a bare blob read without a store: the CLI on a file, tests). */
export function scratchSearchIndex(): { index: SearchIndex; close(): void } {
  const db = new DatabaseCtor(":memory:");
  db.exec(searchMigrationSql);
  return { index: new SearchIndex(db), close: () => db.close() };
}

export interface SearchOptions {
  blobId?: string;
  blobIds?: string[];
  topK?: number;
  /** Told when a search over every blob was narrowed to the newest passages holding its words (see NARROWED_ROWS). */
  onNarrowed?: (rows: number) => void;
}

const SEQ_SHIFT = 2 ** 21;
const DEFAULT_TOP_K = 5;
/** Beyond this many blob ids a filtered search runs once globally and filters, not per blob. */
const PER_BLOB_QUERY_LIMIT = 32;
/**
 * FTS5's bm25() walks the whole doclist of every query term on each query (for its IDF), even
 * when a rowid range limits the search to one blob; one very common term in a 1 GB store costs
 * hundreds of milliseconds. Terms are therefore ranked rarest first until their combined
 * document frequency passes this budget; the common ones left out weigh little in BM25 anyway
 * (low IDF), and snippets still centre on every query term.
 */
const MAX_RANKED_ROWS = 12_000;
/**
 * A document frequency is counted only this far: past the budget, how far past does not change
 * which terms are ranked, and a full count of a word in 1.5 M chunks took 290 ms (4 ms capped).
 */
const DF_COUNT_CAP = 4 * MAX_RANKED_ROWS;
/**
 * A search over every blob whose words are all common (the rarest kept term is in more passages
 * than MAX_RANKED_ROWS) ranks only the newest this many passages that hold them: ORDER BY rank
 * sorts every matching row (3 s for a word in 1.5 M chunks of a 6 GB index, with the engine's
 * thread, and so the agents' calls, waiting), the newest 12,000 with their rank take 60 ms.
 */
const NARROWED_ROWS = MAX_RANKED_ROWS;

interface Row {
  rowid: number;
  rank: number;
  body: string;
  start_line: number;
  end_line: number;
  start_char: number;
  end_char: number;
}

/** The search index over a better-sqlite3 handle that already ran `searchMigrationSql`. */
export class SearchIndex {
  private readonly st: Record<string, Statement>;
  /**
   * Document frequencies (never 0) of recent query terms. Only used to choose which terms to
   * rank, so staleness (another process indexing) costs at most a slightly different choice;
   * local writes clear it. A 0 is not cached: it would drop the term until the next clear.
   */
  private readonly dfCache = new Map<string, number>();

  constructor(private readonly db: Database) {
    const cols = "rowid, rank, body, start_line, end_line, start_char, end_char";
    this.st = {
      ensureBlob: db.prepare(
        "INSERT INTO search_blobs (blob_id, kind) VALUES (?, ?) ON CONFLICT (blob_id) DO UPDATE SET kind = excluded.kind, complete = 0",
      ),
      seqOf: db.prepare("SELECT seq, complete FROM search_blobs WHERE blob_id = ?"),
      blobOf: db.prepare("SELECT blob_id, complete FROM search_blobs WHERE seq = ?"),
      finish: db.prepare("UPDATE search_blobs SET chunks = ?, chars = ?, complete = 1 WHERE seq = ?"),
      // By rowid equality: FTS5 seeks one row. A rowid range without MATCH scans the whole
      // table (SCAN … INDEX 0:><), about 7 ms per 40,000 chunks even when the range is empty.
      deleteChunk: db.prepare("DELETE FROM search_chunks WHERE rowid = ?"),
      deleteBlob: db.prepare("DELETE FROM search_blobs WHERE seq = ?"),
      insert: db.prepare(
        "INSERT INTO search_chunks (rowid, body, extra, start_line, end_line, start_char, end_char) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ),
      countAll: db.prepare("SELECT count(*) AS n FROM (SELECT rowid FROM search_chunks WHERE search_chunks MATCH ? LIMIT ?)"),
      // Rank only: the bodies of 12,000 passages are read for the few that are shown (byRowid).
      newest: db.prepare("SELECT rowid, rank FROM search_chunks WHERE search_chunks MATCH ? ORDER BY rowid DESC LIMIT ?"),
      byRowid: db.prepare("SELECT rowid, body, start_line, end_line, start_char, end_char FROM search_chunks WHERE rowid = ?"),
      inRange: db.prepare(`SELECT ${cols} FROM search_chunks WHERE search_chunks MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ?`),
      global: db.prepare(`SELECT ${cols} FROM search_chunks WHERE search_chunks MATCH ? ORDER BY rank LIMIT ?`),
    };
  }

  /** Replaces the blob's chunks in one transaction (a re-index after a crash starts clean). */
  indexBlob(id: string, content: string, kind: Kind): void {
    this.db.transaction(() => {
      const seq = this.beginBlob(id, kind);
      let n = 0;
      for (const c of chunkText(content, kind)) {
        this.insertChunk(seq, content, c, n);
        n++;
      }
      this.st.finish!.run(n, content.length, seq);
    })();
  }

  /**
   * The same as `indexBlob`, in batches of transactions with a yield to the event loop between
   * them, so indexing a 100 MB blob does not stall an endpoint. Searches skip the blob until done.
   */
  async indexBlobAsync(id: string, content: string, kind: Kind, batchChunks = 2_000): Promise<void> {
    const seq = this.db.transaction(() => this.beginBlob(id, kind)).immediate();
    const chunks = chunkText(content, kind);
    let n = 0;
    // One batch per transaction; returns false once the chunks run out.
    const batch = this.db.transaction((): boolean => {
      // Removed (swept) while we were yielding: stop rather than leave orphan chunks.
      if (!this.st.blobOf!.get(seq)) return false;
      this.dfCache.clear();
      for (let k = 0; k < batchChunks; k++) {
        const next = chunks.next();
        if (next.done) return false;
        this.insertChunk(seq, content, next.value, n);
        n++;
      }
      return true;
    });
    // IMMEDIATE: a transaction that reads before it writes is refused at once (no busy wait)
    // when another process holds the write lock.
    while (batch.immediate()) await new Promise<void>((resolve) => setImmediate(resolve));
    this.st.finish!.run(n, content.length, seq);
  }

  /** True when the blob's chunks are completely indexed. */
  isIndexed(id: string): boolean {
    const row = this.st.seqOf!.get(id) as { complete: number } | undefined;
    return row?.complete === 1;
  }

  /** Drops the blob's chunks (on sweep, eviction or purge). */
  removeBlob(id: string): void {
    this.db.transaction(() => {
      const row = this.st.seqOf!.get(id) as { seq: number } | undefined;
      if (!row) return;
      this.dfCache.clear();
      this.deleteChunks(row.seq);
      this.st.deleteBlob!.run(row.seq);
    })();
  }

  /**
   * Empties the index and makes its tables anew (a damaged search index: its rows are derived from
   * the blobs, which are indexed again). The FTS5 table is dropped, shadow tables and all, and
   * created as the migration does; one transaction.
   */
  reset(): void {
    this.db.transaction(() => {
      this.db.exec("DROP TABLE IF EXISTS search_chunks; DELETE FROM search_blobs;");
      this.db.exec(searchMigrationSql);
    })();
    this.dfCache.clear();
  }

  /** Live blobs not (yet) fully in the index: too large to index eagerly, or still being indexed. */
  unindexedLiveBlobs(): number {
    const r = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM blobs b LEFT JOIN search_blobs s ON s.blob_id = b.id
         WHERE b.tombstoned_at IS NULL AND (s.complete IS NULL OR s.complete = 0)`,
      )
      .get() as { n: number };
    return r.n;
  }

  /**
   * Live blobs of up to `maxChars` chars not fully in the index, in id order after `afterId`: the
   * ones an earlier process stored and was stopped (killed, shut down) before it indexed.
   */
  unindexedLiveIds(afterId: string, limit: number, maxChars: number): string[] {
    const rows = this.db
      .prepare(
        `SELECT b.id FROM blobs b LEFT JOIN search_blobs s ON s.blob_id = b.id
         WHERE b.id > ? AND b.tombstoned_at IS NULL AND b.chars <= ? AND (s.complete IS NULL OR s.complete = 0)
         ORDER BY b.id LIMIT ?`,
      )
      .all(afterId, maxChars, limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Best chunks for a plain-language query: in one blob, in a set of blobs, or across all. */
  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const topK = Math.max(1, Math.floor(opts.topK ?? DEFAULT_TOP_K));
    const ids = opts.blobId !== undefined ? [opts.blobId] : opts.blobIds;
    // Over-fetch so that demoting navigation chunks can still fill topK with the next best.
    const want = topK + NAV_OVERFETCH;
    const ranked = this.rankedTerms(terms);
    if (ranked.length === 0) return [];
    const match = ftsMatchExpression(ranked);
    const perBlob = ids !== undefined && ids.length <= PER_BLOB_QUERY_LIMIT;
    const narrowed = !perBlob && this.documentFrequency(ranked[0]!) > MAX_RANKED_ROWS;
    if (narrowed) opts.onNarrowed?.(NARROWED_ROWS);
    const hits = perBlob
      ? ids.flatMap((id) => this.searchBlob(match, id, want))
      : this.searchAll(match, want, ids ? new Set(ids) : null, narrowed);
    return hits
      .map(({ blobId, row }) => ({ blobId, row, score: -row.rank * navigationWeight(row.body) }))
      .toSorted((a, b) => b.score - a.score)
      .slice(0, topK)
      .map(({ blobId, row, score }) => toHit(blobId, row, terms, score));
  }

  private searchBlob(match: string, id: string, topK: number): { blobId: string; row: Row }[] {
    const blob = this.st.seqOf!.get(id) as { seq: number; complete: number } | undefined;
    if (!blob || blob.complete !== 1) return [];
    const base = blob.seq * SEQ_SHIFT;
    const rows = this.st.inRange!.all(match, base, base + SEQ_SHIFT - 1, topK) as Row[];
    return rows.map((row) => ({ blobId: id, row }));
  }

  private searchAll(match: string, topK: number, only: Set<string> | null, narrowed = false): { blobId: string; row: Row }[] {
    const out: { blobId: string; row: Row }[] = [];
    const names = new Map<number, string | null>();
    // Over-fetch, because rows of blobs still being indexed or outside `only` are skipped.
    const limit = only ? -1 : topK * 2 + 8;
    const rows = narrowed ? this.newestRanked(match) : (this.st.global!.iterate(match, limit) as Iterable<Row>);
    for (const row of rows) {
      const seq = Math.floor(row.rowid / SEQ_SHIFT);
      if (!names.has(seq)) {
        const b = this.st.blobOf!.get(seq) as { blob_id: string; complete: number } | undefined;
        names.set(seq, b && b.complete === 1 ? b.blob_id : null);
      }
      const blobId = names.get(seq);
      if (!blobId || (only && !only.has(blobId))) continue;
      out.push({ blobId, row });
      if (out.length >= topK) break;
    }
    return out;
  }

  /** The newest NARROWED_ROWS passages matching, best ranked first, each body read when reached. */
  private *newestRanked(match: string): Iterable<Row> {
    const ranks = (this.st.newest!.all(match, NARROWED_ROWS) as { rowid: number; rank: number }[]).sort((a, b) => a.rank - b.rank);
    for (const { rowid, rank } of ranks) {
      const row = this.st.byRowid!.get(rowid) as Omit<Row, "rank"> | undefined;
      if (row) yield { ...row, rank };
    }
  }

  /** The query terms worth ranking, by their document frequency over the whole index. */
  private rankedTerms(terms: readonly string[]): string[] {
    return selectTerms(terms, (t) => this.documentFrequency(t), MAX_RANKED_ROWS);
  }

  private documentFrequency(term: string): number {
    let n = this.dfCache.get(term);
    if (n === undefined) {
      n = (this.st.countAll!.get(ftsMatchExpression([term]), DF_COUNT_CAP) as { n: number }).n;
      if (this.dfCache.size >= 1_000) this.dfCache.clear();
      if (n > 0) this.dfCache.set(term, n);
    }
    return n;
  }

  private beginBlob(id: string, kind: Kind): number {
    this.dfCache.clear();
    this.st.ensureBlob!.run(id, kind);
    const { seq } = this.st.seqOf!.get(id) as { seq: number };
    this.deleteChunks(seq);
    return seq;
  }

  /**
   * Deletes a blob's chunks, which are always rowids `base + 0, 1, 2…` with no gap (chunks are
   * numbered in order and inserted in order, batch by batch, see insertChunk): one point delete
   * each and one more that finds nothing. A new blob costs that one lookup, whatever the index holds.
   */
  private deleteChunks(seq: number): void {
    const base = seq * SEQ_SHIFT;
    for (let k = 0; k < SEQ_SHIFT && this.st.deleteChunk!.run(base + k).changes > 0; k++);
  }

  /** `n`: how many chunks of this blob are in already; chunk numbers must follow on without a gap (deleteChunks relies on it). */
  private insertChunk(seq: number, content: string, c: Chunk, n: number): void {
    if (c.chunk >= SEQ_SHIFT) throw new RangeError("blob has too many chunks to index");
    if (c.chunk !== n) throw new Error(`search chunk ${c.chunk} out of order (expected ${n})`);
    const body = content.slice(c.startChar, c.endChar);
    this.st.insert!.run(seq * SEQ_SHIFT + c.chunk, body, extraTerms(body, c.heading), c.startLine, c.endLine, c.startChar, c.endChar);
  }
}

function toHit(blobId: string, row: Row, terms: readonly string[], score: number): SearchHit {
  const span = bestTermSpan(row.body, terms);
  const snippet = span ? centreSnippet(row.body, span[0], span[1]) : centreSnippet(row.body, 0, 0);
  return {
    blobId,
    chunk: row.rowid % SEQ_SHIFT,
    startLine: row.start_line,
    endLine: row.end_line,
    startChar: row.start_char,
    endChar: row.end_char,
    score,
    snippet,
  };
}
