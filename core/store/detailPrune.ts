/**
 * Retention of the ledger's detail. A call's row keeps its figures for good (returned, given,
 * tokens, outcome, duration, its events: every savings figure, session list and timeline is read
 * from them), but what only its opened view shows goes after `store.detailTtlDays`: its raw
 * record (JSON-RPC or hook exchange), the texts it returned and was given, its arguments past the
 * preview the session table shows (an error's sentence likewise), thumbnails; and for a read, its
 * answer and its JSON-RPC. On a measured store that was 9.1 of the 9.9 KB of ledger a call kept
 * once its result expired (README, "Store and retention"). Each call and read pruned says when, so
 * the inspector can say so. Calls and reads of pinned blobs keep their detail, and imported history
 * (the replay lab's input) keeps its own.
 *
 * In batches, one IMMEDIATE transaction each, so an agent's call (or another process) waits for
 * one batch at most. The index is not vacuumed (auto_vacuum is off): pages freed here go on
 * SQLite's free list and take the next writes, so the file stops growing instead of shrinking.
 */
import type { BlobStore } from "./blobStore";
import type { Db } from "./db";
import type { CallRow } from "./ledger";
import { stmt } from "./statements";
import { ROW_PREVIEW_CHARS } from "./read/timeline";

const DAY = 86_400_000;
/** Calls, and reads, per transaction. */
export const PRUNE_BATCH = 100;

export interface PruneCounts {
  /** Calls whose detail was removed. */
  calls: number;
  /** Reads (fetches, recalls, expansions) whose answer or JSON-RPC was removed. */
  reads: number;
}

/** `text` cut to the kept preview, saying how much went (as the audit trail cuts its texts). */
function cut(text: string | null): string | null {
  if (text === null || text.length <= ROW_PREVIEW_CHARS) return text;
  return `${text.slice(0, ROW_PREVIEW_CHARS)}… [${(text.length - ROW_PREVIEW_CHARS).toLocaleString("en-US")} more chars]`;
}

/** A call of its group (the call and its parts) whose blob is pinned keeps the group's detail. */
const NOT_PINNED = `
  NOT EXISTS (SELECT 1 FROM calls g JOIN blobs b ON b.id = g.blob_id WHERE g.id = COALESCE(c.part_of, c.id) AND b.pinned = 1)
  AND NOT EXISTS (SELECT 1 FROM calls g JOIN blobs b ON b.id = g.blob_id WHERE g.part_of = COALESCE(c.part_of, c.id) AND b.pinned = 1)`;

const DUE_CALLS = `SELECT c.* FROM calls c INDEXED BY calls_detail_kept
  WHERE c.detail_pruned_at IS NULL AND c.imported = 0 AND c.ts < @cutoff AND (c.ts, c.id) > (@ts, @id) AND ${NOT_PINNED}
  ORDER BY c.ts, c.id LIMIT @limit`;

/** A call's row, every column (the slim one is written back whole). */
type DueCall = CallRow & Record<string, unknown>;

/**
 * Reads keep their detail in event_texts (answers) and rpc_log (JSON-RPC); their ids follow time,
 * so those up to the newest event before the cutoff are the candidates.
 */
const DUE_READS = `SELECT x.id FROM (
    SELECT event_id AS id FROM event_texts WHERE event_id > @after AND event_id <= @last
    UNION SELECT event_id FROM rpc_log INDEXED BY rpc_log_event WHERE event_id IS NOT NULL AND event_id > @after AND event_id <= @last
  ) x JOIN events e ON e.id = x.id
  WHERE e.ts < @cutoff AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.id = e.blob_id AND b.pinned = 1)
  ORDER BY x.id LIMIT @limit`;

/**
 * Removes the detail older than `cutoff` (ms), a batch per step. One run walks forward (a pinned
 * call it skipped is not looked at again by the same run), so it ends however many are exempt.
 */
export class DetailPrune {
  readonly counts: PruneCounts = { calls: 0, reads: 0 };
  private callsAfter = { ts: Number.MIN_SAFE_INTEGER, id: 0 };
  private readsAfter = 0;
  private callsDone = false;
  private readsDone = false;
  private readonly lastRead: number;

  constructor(
    private readonly db: Db,
    private readonly cutoff: number,
    /** When the detail is removed, as the rows will say. */
    private readonly now: number,
  ) {
    // The events_ts index's last entry before the cutoff (MAX(id) would walk every older event).
    const last = stmt(db, "SELECT id FROM events WHERE ts < ? ORDER BY ts DESC LIMIT 1").get(cutoff) as { id: number } | undefined;
    this.lastRead = last?.id ?? 0;
  }

  /** Whether a step is left to run. */
  get done(): boolean {
    return this.callsDone && this.readsDone;
  }

  /** One batch of calls and one of reads, in one transaction; false once nothing was left. Safe to run again after it threw. */
  step(): boolean {
    if (this.done) return false;
    // Applied once committed: a batch rolled back (a busy lock) is found again by the next step.
    const { calls, reads } = this.db
      .transaction(() => ({ calls: this.callsDone ? null : this.pruneCalls(), reads: this.readsDone ? null : this.pruneReads() }))
      .immediate();
    if (calls) {
      if (calls.last) this.callsAfter = calls.last;
      this.counts.calls += calls.n;
      this.callsDone = calls.n < PRUNE_BATCH;
    }
    if (reads) {
      this.readsAfter = reads.last;
      this.counts.reads += reads.n;
      this.readsDone = reads.n < PRUNE_BATCH;
    }
    return true;
  }

  /** Every step left, each its own transaction. */
  run(): PruneCounts {
    while (this.step());
    return this.counts;
  }

  private pruneCalls(): { n: number; last: { ts: number; id: number } | null } {
    const due = stmt(this.db, DUE_CALLS).all({ cutoff: this.cutoff, ...this.callsAfter, limit: PRUNE_BATCH }) as DueCall[];
    if (due.length === 0) return { n: 0, last: null };
    // Deleted and written back slim under the same id, not updated: SQLite merges a leaf page with
    // its neighbours only after a delete leaves it under a third full, so rows shrunk in place kept
    // their pages (a pruned calls table used 700 bytes a row; rewritten, 240).
    const cols = Object.keys(due[0]!);
    const insert = stmt(this.db, `INSERT INTO calls (${cols.join(", ")}) VALUES (${cols.map((k) => "@" + k).join(", ")})`);
    const remove = stmt(this.db, "DELETE FROM calls WHERE id = ?");
    const rpc = stmt(this.db, "DELETE FROM rpc_log WHERE call_id = ?");
    const thumbs = stmt(this.db, "UPDATE call_media SET thumb = NULL WHERE call_id = ? AND thumb IS NOT NULL");
    for (const c of due) {
      // The session table shows a failed call's sentence (its raw text, else what was given): kept as a preview.
      const failed = c.outcome === "error" || c.is_error === 1;
      const raw_text = failed ? cut(c.raw_text) : null;
      const given_text = failed && c.raw_text === null ? cut(c.given_text) : null;
      remove.run(c.id);
      insert.run({ ...c, args_json: cut(c.args_json), raw_text, given_text, detail_pruned_at: this.now });
      rpc.run(c.id);
      thumbs.run(c.id);
    }
    const last = due[due.length - 1];
    return { n: due.length, last: last ? { ts: last.ts, id: last.id } : null };
  }

  private pruneReads(): { n: number; last: number } {
    const ids = (
      stmt(this.db, DUE_READS).all({ after: this.readsAfter, last: this.lastRead, cutoff: this.cutoff, limit: PRUNE_BATCH }) as {
        id: number;
      }[]
    ).map((r) => r.id);
    const mark = stmt(this.db, "UPDATE events SET detail_pruned_at = ? WHERE id = ?");
    const texts = stmt(this.db, "DELETE FROM event_texts WHERE event_id = ?");
    const rpc = stmt(this.db, "DELETE FROM rpc_log WHERE event_id = ?");
    for (const id of ids) {
      mark.run(this.now, id);
      texts.run(id);
      rpc.run(id);
    }
    return { n: ids.length, last: ids.length ? ids[ids.length - 1]! : this.readsAfter };
  }
}

/** A prune of the store's detail past `store.detailTtlDays` as of now; null when it is kept forever (0). */
export function detailPrune(store: BlobStore): DetailPrune | null {
  const days = store.opts.config.detailTtlDays;
  return days > 0 ? new DetailPrune(store.db, store.now - days * DAY, store.now) : null;
}

/** Calls whose detail a sweep would remove now (pinned ones aside), for `spillway doctor`. */
export function detailDue(db: Db, days: number, now: number): number {
  if (days <= 0) return 0;
  return (
    stmt(
      db,
      `SELECT COUNT(*) AS n FROM calls c INDEXED BY calls_detail_kept
       WHERE c.detail_pruned_at IS NULL AND c.imported = 0 AND c.ts < ? AND ${NOT_PINNED}`,
    ).get(now - days * DAY) as { n: number }
  ).n;
}

/** The index's size and the part of it that is free pages (reused by the next writes before the file grows). */
export function indexSize(db: Db): { bytes: number; freeBytes: number } {
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const pages = db.pragma("page_count", { simple: true }) as number;
  const free = db.pragma("freelist_count", { simple: true }) as number;
  return { bytes: pages * pageSize, freeBytes: free * pageSize };
}
