/**
 * The ledger rows whose token counts an earlier process never wrote (it was killed with counts in
 * its in-memory queue), for the recount an engine runs when it opens the store. Read in windows of
 * ids so no batch walks the whole table, and written only where the count is still missing: a live
 * process that counts the same row from the text it still holds keeps the last word.
 */
import type { BlobStore } from "./blobStore";
import { processAlive } from "../runtime";
import type { Db } from "./db";
import { stmt } from "./statements";

/** What a call's recount needs: the texts the ledger kept and the blob that holds the result. */
export interface UncountedCall {
  id: number;
  tool: string;
  outcome: string;
  blob_id: string | null;
  returned_chars: number;
  given_chars: number;
  raw_text: string | null;
  given_text: string | null;
}

/** A read (fetch, recall) whose answer was never counted; `text`: its kept answer, null once gone. */
export interface UncountedRead {
  id: number;
  blob_id: string | null;
  chars: number;
  text: string | null;
}

const CLAIM_KEY = "token_recount_claim";

/** The uncounted rows of a blob store's index. */
export function storeUncountedTokens(store: BlobStore): UncountedTokens {
  return new UncountedTokens(store.db);
}

export class UncountedTokens {
  constructor(private readonly db: Db) {}

  /** The newest call and event ids: rows past them are the opening process's own, counted by its queue. */
  lastIds(): { call: number; event: number } {
    const call = (stmt(this.db, "SELECT COALESCE(MAX(id), 0) AS n FROM calls").get() as { n: number }).n;
    const event = (stmt(this.db, "SELECT COALESCE(MAX(id), 0) AS n FROM events").get() as { n: number }).n;
    return { call, event };
  }

  /** Calls without counts with ids in (after, upTo], oldest first, at most `limit`. */
  calls(after: number, upTo: number, limit: number): UncountedCall[] {
    return stmt(
      this.db,
      `SELECT id, tool, outcome, blob_id, returned_chars, given_chars, raw_text, given_text FROM calls
         WHERE id > ? AND id <= ? AND returned_tokens IS NULL ORDER BY id LIMIT ?`,
    ).all(after, upTo, limit) as UncountedCall[];
  }

  /**
   * Answered reads without a count with ids in (after, upTo]. A resources/read keeps no answer of
   * its own (`answer: "the whole blob"`) and was never counted: left as it is.
   */
  reads(after: number, upTo: number, limit: number): UncountedRead[] {
    return stmt(
      this.db,
      `SELECT e.id, e.blob_id, e.chars, t.text FROM events e LEFT JOIN event_texts t ON t.event_id = e.id
         WHERE e.id > ? AND e.id <= ? AND e.tokens IS NULL AND e.type IN ('fetch', 'recall')
           AND (e.data_json IS NULL OR json_extract(e.data_json, '$.answer') IS NULL)
         ORDER BY e.id LIMIT ?`,
    ).all(after, upTo, limit) as UncountedRead[];
  }

  /** Chars per token over the calls counted exactly, to estimate a count whose text is gone; null before any. */
  charsPerToken(): number | null {
    const r = stmt(
      this.db,
      `SELECT SUM(returned_chars) AS chars, SUM(returned_tokens) AS tokens FROM calls INDEXED BY calls_figures
         WHERE returned_tokens > 0 AND tokens_estimated = 0`,
    ).get() as { chars: number | null; tokens: number | null };
    return r.chars && r.tokens ? r.chars / r.tokens : null;
  }

  /** Writes a recounted call's counts unless a count arrived meanwhile. */
  setCallTokens(id: number, returned: number, given: number, estimated: boolean): void {
    stmt(
      this.db,
      "UPDATE calls SET returned_tokens = ?, given_tokens = ?, tokens_estimated = ? WHERE id = ? AND returned_tokens IS NULL",
    ).run(returned, given, estimated ? 1 : 0, id);
  }

  /** Writes a recounted read's count unless a count arrived meanwhile. */
  setReadTokens(id: number, tokens: number): void {
    stmt(this.db, "UPDATE events SET tokens = ? WHERE id = ? AND tokens IS NULL").run(tokens, id);
  }

  /**
   * Takes the recount for `owner` (`<pid>:<nonce>`) unless a live process (or another engine of
   * this one) holds it: two processes opening the same home do not count the same rows twice.
   */
  claim(owner: string): boolean {
    return this.db
      .transaction(() => {
        const held = (stmt(this.db, "SELECT value FROM meta WHERE key = ?").get(CLAIM_KEY) as { value: string } | undefined)?.value;
        if (held && held !== owner && processAlive(Number(held.split(":")[0]))) return false;
        stmt(this.db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(CLAIM_KEY, owner);
        return true;
      })
      .immediate();
  }

  /** Gives the recount back (done, or the engine is closing). */
  release(owner: string): void {
    stmt(this.db, "DELETE FROM meta WHERE key = ? AND value = ?").run(CLAIM_KEY, owner);
  }
}
