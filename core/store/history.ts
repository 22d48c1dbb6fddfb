/** Writes of imported agent histories: the session row, its requests, and the import marks on its calls. */
import type { BlobStore } from "./blobStore";
import type { Db } from "./db";
import { stmt } from "./statements";

export interface ImportedSessionRow {
  id: string;
  agent: string;
  project: string | null;
  model: string | null;
  title: string | null;
  source: string;
  startedAt: number;
  lastAt: number;
}

export interface HistoryRequestRow {
  seq: number;
  ts: number;
  /** The request starts over after a compaction: it carries nothing sent before. */
  reset: boolean;
  textChars: number;
  textTokens: number;
}

export interface ImportMark {
  sourceKey: string;
  model: string | null;
  requestSeq: number | null;
  hostCut: string | null;
}

export class HistoryStore {
  private readonly db: Db;

  constructor(store: BlobStore) {
    this.db = store.db;
  }

  /** Creates or refreshes an imported session (never a live one: ids of imports are their own). */
  upsertSession(s: ImportedSessionRow): void {
    stmt(
      this.db,
      `INSERT INTO sessions (id, client, created_at, last_seen_at, imported, agent, project, model, title, source)
       VALUES (@id, @agent, @startedAt, @lastAt, 1, @agent, @project, @model, @title, @source)
       ON CONFLICT (id) DO UPDATE SET last_seen_at = MAX(sessions.last_seen_at, excluded.last_seen_at),
         created_at = MIN(sessions.created_at, excluded.created_at), imported = 1, agent = excluded.agent,
         project = excluded.project, model = excluded.model, title = excluded.title, source = excluded.source`,
    ).run(s);
  }

  /** Whether this session id exists and is not an imported one. */
  isLiveSession(id: string): boolean {
    const r = stmt(this.db, "SELECT imported FROM sessions WHERE id = ?").get(id) as { imported: number } | undefined;
    return r !== undefined && r.imported === 0;
  }

  /** The session's requests, replaced whole (a re-import of a grown session recomputes them). */
  replaceRequests(sessionId: string, rows: HistoryRequestRow[]): void {
    stmt(this.db, "DELETE FROM history_requests WHERE session_id = ?").run(sessionId);
    const ins = stmt(
      this.db,
      "INSERT INTO history_requests (session_id, seq, ts, reset, text_chars, text_tokens) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const r of rows) ins.run(sessionId, r.seq, r.ts, r.reset ? 1 : 0, r.textChars, r.textTokens);
  }

  /** The call already imported under this key (its id and stored blob), if any. */
  callBySourceKey(key: string): { id: number; blobId: string | null } | null {
    const r = stmt(this.db, "SELECT id, blob_id FROM calls WHERE source_key = ?").get(key) as
      { id: number; blob_id: string | null } | undefined;
    return r ? { id: r.id, blobId: r.blob_id } : null;
  }

  /** Marks a call just recorded through the ledger as imported. */
  markImported(callId: number, m: ImportMark): void {
    stmt(this.db, "UPDATE calls SET imported = 1, source_key = ?, model = ?, request_seq = ?, host_cut = ? WHERE id = ?").run(
      m.sourceKey,
      m.model,
      m.requestSeq,
      m.hostCut,
      callId,
    );
  }

  /** Keeps an already imported call's request in step with a recomputed plan. */
  setRequestSeq(callId: number, requestSeq: number | null): void {
    stmt(this.db, "UPDATE calls SET request_seq = ? WHERE id = ?").run(requestSeq, callId);
  }
}
