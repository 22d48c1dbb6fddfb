/** Imported sessions as the replay lab reads them: their requests and their calls with the texts behind them. */
import type { BlobStore } from "../blobStore";
import { stmt } from "../statements";
import type { HistoryCall, HistoryRequest, ImportedSessionFilter, ImportedSessionRef } from "./readModel";

export type { HistoryCall, HistoryRequest, ImportedSessionFilter, ImportedSessionRef };

interface CallDbRow {
  id: number;
  ts: number;
  tool: string;
  server: string | null;
  args_json: string | null;
  is_error: number;
  blob_id: string | null;
  returned_chars: number;
  given_chars: number;
  returned_tokens: number | null;
  given_tokens: number | null;
  request_seq: number | null;
  host_cut: string | null;
  model: string | null;
}

export function importedSessions(store: BlobStore, f: ImportedSessionFilter): ImportedSessionRef[] {
  const rows = stmt(
    store.db,
    `SELECT id, agent, project, model, title, created_at AS createdAt, last_seen_at AS lastSeenAt FROM sessions
     WHERE imported = 1 AND (@sessionId IS NULL OR id = @sessionId) AND (@agent IS NULL OR agent = @agent)
       AND (@project IS NULL OR project = @project)
     ORDER BY created_at, id`,
  ).all({ sessionId: f.sessionId ?? null, agent: f.agent ?? null, project: f.project ?? null });
  return rows as ImportedSessionRef[];
}

export function historyRequests(store: BlobStore, sessionId: string): HistoryRequest[] {
  const rows = stmt(store.db, "SELECT seq, ts, reset, text_chars, text_tokens FROM history_requests WHERE session_id = ? ORDER BY seq").all(
    sessionId,
  ) as {
    seq: number;
    ts: number;
    reset: number;
    text_chars: number;
    text_tokens: number;
  }[];
  return rows.map((r) => ({ seq: r.seq, ts: r.ts, reset: r.reset === 1, textChars: r.text_chars, textTokens: r.text_tokens }));
}

export function historyCalls(store: BlobStore, sessionId: string): HistoryCall[] {
  const rows = stmt(
    store.db,
    `SELECT id, ts, tool, server, args_json, is_error, blob_id, returned_chars, given_chars, returned_tokens, given_tokens,
       request_seq, host_cut, model FROM calls WHERE session_id = ? ORDER BY id`,
  ).all(sessionId) as CallDbRow[];
  return rows.map((r) => ({
    id: r.id,
    ts: r.ts,
    tool: r.tool,
    server: r.server,
    argsJson: r.args_json,
    isError: r.is_error === 1,
    blobId: r.blob_id,
    returnedChars: r.returned_chars,
    givenChars: r.given_chars,
    returnedTokens: r.returned_tokens,
    givenTokens: r.given_tokens,
    requestSeq: r.request_seq,
    hostCut: r.host_cut,
    model: r.model,
  }));
}

/**
 * A call's result (the tool's own, whole where the agent kept it) and what the model was given;
 * null where the content is gone (its blob swept). Exact bytes: for the operator's replay, never
 * for a model.
 */
export function callTexts(store: BlobStore, callId: number): { result: string | null; given: string | null } {
  const r = stmt(store.db, "SELECT blob_id, raw_text, given_text FROM calls WHERE id = ?").get(callId) as
    { blob_id: string | null; raw_text: string | null; given_text: string | null } | undefined;
  if (!r) return { result: null, given: null };
  const result = r.raw_text ?? (r.blob_id ? store.read(r.blob_id) : null);
  return { result, given: r.given_text ?? result };
}

/** Changes whenever an import stores something: the id of the newest import event (0 before any). */
export function historyVersion(store: BlobStore): number {
  return (stmt(store.db, "SELECT COALESCE(MAX(id), 0) AS id FROM events WHERE type = 'import'").get() as { id: number }).id;
}

/** Imported sessions and calls per agent. */
export function importedCounts(store: BlobStore): { agent: string; sessions: number; calls: number }[] {
  return stmt(
    store.db,
    `SELECT s.agent AS agent, COUNT(DISTINCT s.id) AS sessions, COUNT(c.id) AS calls
     FROM sessions s LEFT JOIN calls c ON c.session_id = s.id WHERE s.imported = 1 GROUP BY s.agent ORDER BY s.agent`,
  ).all() as { agent: string; sessions: number; calls: number }[];
}
