/** A blob's lineage from the ledger: who produced it, which sessions hold it, and what touched it. */
import type { Db } from "../db";
import type { CallRow, EventRow } from "../ledger";
import type { Lineage, StoredHandle } from "./readModel";
import { toCallRef, toLedgerEvent } from "./ledgerRows";

const CALL_COLS = `id, session_id, ts, tool, server, NULL AS args_json, outcome, blob_id, is_error, returned_chars,
  returned_tokens, given_chars, given_tokens, NULL AS raw_text, NULL AS given_text`;
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
      .prepare("SELECT * FROM events WHERE blob_id = ? AND type NOT IN ('rescue', 'stub', 'passthrough') ORDER BY id LIMIT ?")
      .all(id, LIMIT) as EventRow[]
  ).map(toLedgerEvent);
  return { producedBy: calls.find((c) => c.outcome !== "stubbed") ?? calls[0] ?? null, calls, heldBy, events };
}

/** The handle the model was given the last time this content was rescued. */
export function lastHandle(db: Db, id: string): StoredHandle | null {
  const r = db
    .prepare("SELECT id, session_id, ts, given_text FROM calls WHERE blob_id = ? AND outcome = 'rescued' ORDER BY id DESC LIMIT 1")
    .get(id) as { id: number; session_id: string; ts: number; given_text: string | null } | undefined;
  if (!r || r.given_text === null) return null;
  return { text: r.given_text, callId: r.id, sessionId: r.session_id, ts: r.ts };
}
