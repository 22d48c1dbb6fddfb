/** Sessions, what each session holds, and the dedup streak counters. */
import type { Db } from "./db";
import { stmt } from "./statements";

export interface SessionRow {
  id: string;
  client: string | null;
  created_at: number;
  last_seen_at: number;
  generation: number;
  turn: number;
  /** When a Spillway MCP session last served this session (null: never). */
  tools_at: number | null;
  /** The process whose MCP session that was (null in rows from before migration 15). */
  tools_pid: number | null;
}

export class SessionStore {
  constructor(private readonly db: Db) {}

  /**
   * Creates the session on first sight and refreshes its last-seen time. `tools`: a Spillway MCP
   * session of this process serves it, so its model can call rescuer_fetch and recall_result.
   */
  touch(id: string, now: number, client?: string | null, tools = false): SessionRow {
    stmt(
      this.db,
      `INSERT INTO sessions (id, client, created_at, last_seen_at, tools_at, tools_pid) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at,
           client = COALESCE(excluded.client, sessions.client), tools_at = COALESCE(excluded.tools_at, sessions.tools_at),
           tools_pid = COALESCE(excluded.tools_pid, sessions.tools_pid)`,
    ).run(id, client ?? null, now, now, tools ? now : null, tools ? process.pid : null);
    return this.get(id)!;
  }

  get(id: string): SessionRow | undefined {
    return stmt(this.db, "SELECT * FROM sessions WHERE id = ?").get(id) as SessionRow | undefined;
  }

  /** Compaction: every result is delivered in full once more before stubbing resumes. */
  advanceGeneration(id: string, now: number): number {
    this.touch(id, now);
    stmt(this.db, "UPDATE sessions SET generation = generation + 1 WHERE id = ?").run(id);
    stmt(this.db, "DELETE FROM streaks WHERE session_id = ?").run(id);
    return this.get(id)!.generation;
  }

  markTurn(id: string, now: number): number {
    this.touch(id, now);
    stmt(this.db, "UPDATE sessions SET turn = turn + 1 WHERE id = ?").run(id);
    return this.get(id)!.turn;
  }

  /** The generation in which the session last received this blob, or null if it never did. */
  heldGeneration(sessionId: string, blobId: string): number | null {
    const r = stmt(this.db, "SELECT generation FROM session_blobs WHERE session_id = ? AND blob_id = ?").get(sessionId, blobId) as
      { generation: number } | undefined;
    return r ? r.generation : null;
  }

  holds(sessionId: string, blobId: string): boolean {
    return this.heldGeneration(sessionId, blobId) !== null;
  }

  /** Records that the session received the blob (in full or as a handle) in `generation`. */
  recordHeld(sessionId: string, blobId: string, generation: number, now: number): void {
    stmt(
      this.db,
      `INSERT INTO session_blobs (session_id, blob_id, generation, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, blob_id) DO UPDATE SET generation = excluded.generation,
           last_seen_at = excluded.last_seen_at`,
    ).run(sessionId, blobId, generation, now, now);
  }

  /** Blobs a session holds, most recently received first (its MCP resources). */
  heldBlobs(sessionId: string, limit = 200): string[] {
    return (
      stmt(this.db, "SELECT blob_id FROM session_blobs WHERE session_id = ? ORDER BY last_seen_at DESC LIMIT ?").all(sessionId, limit) as {
        blob_id: string;
      }[]
    ).map((r) => r.blob_id);
  }

  /** Sessions that hold a blob. */
  holders(blobId: string): string[] {
    return (
      stmt(this.db, "SELECT session_id FROM session_blobs WHERE blob_id = ? ORDER BY first_seen_at").all(blobId) as {
        session_id: string;
      }[]
    ).map((r) => r.session_id);
  }

  streak(sessionId: string, key: string): { blobId: string; count: number } | null {
    const r = stmt(this.db, "SELECT blob_id, count FROM streaks WHERE session_id = ? AND key = ?").get(sessionId, key) as
      { blob_id: string; count: number } | undefined;
    return r ? { blobId: r.blob_id, count: r.count } : null;
  }

  setStreak(sessionId: string, key: string, blobId: string, count: number): void {
    stmt(
      this.db,
      `INSERT INTO streaks (session_id, key, blob_id, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (session_id, key) DO UPDATE SET blob_id = excluded.blob_id, count = excluded.count`,
    ).run(sessionId, key, blobId, count);
  }
}
