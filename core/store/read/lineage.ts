/** A blob's lineage from the ledger: who produced it, which sessions hold it, and what touched it. */
import type { Db } from "../db";
import type { CallRow, EventRow } from "../ledger";
import type { Lineage, StoredHandle } from "./readModel";
import { toCallRef, toLedgerEvent } from "./ledgerRows";
import { CALL_TYPES_SQL } from "./timeline";

const CALL_COLS = `id, session_id, ts, tool, server, NULL AS args_json, outcome, blob_id, is_error, returned_chars,
  returned_tokens, given_chars, given_tokens, tokens_estimated, NULL AS raw_text, NULL AS given_text, started_at, duration_ms, upstream_ms, part_of`;
/** Rows listed per section at most: a blob fetched 100 k times still opens quickly. */
const LIMIT = 1_000;

export function blobLineage(db: Db, id: string): Lineage {
  const calls = (db.prepare(`SELECT ${CALL_COLS} FROM calls WHERE blob_id = ? ORDER BY id LIMIT ?`).all(id, LIMIT) as CallRow[]).map(
    toCallRef,
  );
  const heldBy = (
    db
      .prepare(
        "SELECT session_id, first_seen_at, last_seen_at, generation FROM session_blobs WHERE blob_id = ? ORDER BY first_seen_at LIMIT ?",
      )
      .all(id, LIMIT) as { session_id: string; first_seen_at: number; last_seen_at: number; generation: number }[]
  ).map((r) => ({ sessionId: r.session_id, firstSeenAt: r.first_seen_at, lastSeenAt: r.last_seen_at, generation: r.generation }));
  // rescue/stub/passthrough events mirror the calls above; the rest is what happened afterwards.
  const events = (
    db
      .prepare(`SELECT * FROM events WHERE blob_id = ? AND type NOT IN (${CALL_TYPES_SQL}) ORDER BY id LIMIT ?`)
      .all(id, LIMIT) as EventRow[]
  ).map(toLedgerEvent);
  // A structuredContent part names its whole call, which the session table lists.
  const listed = calls.map((c) => (c.partOf !== null ? { ...c, id: c.partOf } : c));
  return { producedBy: listed.find((c) => c.outcome !== "stubbed") ?? listed[0] ?? null, calls: listed, heldBy, events };
}

/** The handle the model was given the last time this content was rescued. */
export function lastHandle(db: Db, id: string): StoredHandle | null {
  return handlesOf(db, id, 1)[0] ?? null;
}

/** The handles given for this content, the latest per session first (one per session). */
export function handlesOf(db: Db, id: string, limit = 100): StoredHandle[] {
  const rows = db
    .prepare(
      `SELECT c.id, c.session_id, c.ts, c.given_text FROM calls c
       WHERE c.blob_id = ? AND c.outcome = 'rescued' AND c.given_text IS NOT NULL
         AND c.id = (SELECT MAX(o.id) FROM calls o WHERE o.blob_id = c.blob_id AND o.session_id = c.session_id AND o.outcome = 'rescued')
       ORDER BY c.id DESC LIMIT ?`,
    )
    .all(id, limit) as { id: number; session_id: string; ts: number; given_text: string }[];
  return rows.map((r) => ({ text: r.given_text, callId: r.id, sessionId: r.session_id, ts: r.ts }));
}
