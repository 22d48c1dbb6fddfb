/**
 * The ledger: one row per intercepted call, one row per event. The inspector and savings read it.
 * Nothing credential-shaped is written in clear: a call's arguments and texts and an event's data
 * (a grep pattern holding a key) are masked on the way in; the exact bytes live only in the blob.
 */
import { maskJsonText } from "../sensitivity/jsonText";
import { maskSecrets } from "../sensitivity/secrets";
import type { EventType, Outcome } from "../types";
import { stmt } from "./statements";
import type { Db } from "./db";

export interface CallRecord {
  sessionId: string;
  ts: number;
  tool: string;
  server: string | null;
  argsJson: string | null;
  outcome: Outcome;
  blobId: string | null;
  isError: boolean;
  returnedChars: number;
  givenChars: number;
  /** Kept only when small, or when it differs from the stored blob (handles and stubs). */
  rawText: string | null;
  givenText: string | null;
}

export interface EventRecord {
  ts: number;
  type: EventType;
  sessionId?: string | null;
  blobId?: string | null;
  callId?: number | null;
  tool?: string | null;
  server?: string | null;
  chars?: number;
  tokens?: number | null;
  data?: Record<string, unknown>;
}

export interface EventRow {
  id: number;
  ts: number;
  type: EventType;
  session_id: string | null;
  blob_id: string | null;
  call_id: number | null;
  tool: string | null;
  server: string | null;
  chars: number;
  tokens: number | null;
  data_json: string | null;
}

export interface CallRow {
  id: number;
  session_id: string;
  ts: number;
  tool: string;
  server: string | null;
  args_json: string | null;
  outcome: Outcome;
  blob_id: string | null;
  is_error: number;
  returned_chars: number;
  returned_tokens: number | null;
  given_chars: number;
  given_tokens: number | null;
  raw_text: string | null;
  given_text: string | null;
}

/** `text` as it may be stored. */
function masked(text: string | null): string | null {
  return text === null ? null : maskSecrets(text).text;
}

export class Ledger {
  constructor(private readonly db: Db) {}

  insertCall(c: CallRecord): number {
    return Number(
      stmt(
        this.db,
          `INSERT INTO calls (session_id, ts, tool, server, args_json, outcome, blob_id, is_error, returned_chars,
             given_chars, raw_text, given_text)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(c.sessionId, c.ts, c.tool, c.server, (c.argsJson === null ? null : maskJsonText(c.argsJson)), c.outcome, c.blobId, c.isError ? 1 : 0, c.returnedChars,
          c.givenChars, masked(c.rawText), masked(c.givenText)).lastInsertRowid,
    );
  }

  setCallTokens(callId: number, returnedTokens: number, givenTokens: number): void {
    stmt(this.db, "UPDATE calls SET returned_tokens = ?, given_tokens = ? WHERE id = ?").run(returnedTokens, givenTokens, callId);
  }

  insertEvent(e: EventRecord): number {
    return Number(
      stmt(
        this.db,
          `INSERT INTO events (ts, type, session_id, blob_id, call_id, tool, server, chars, tokens, data_json)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(e.ts, e.type, e.sessionId ?? null, e.blobId ?? null, e.callId ?? null, e.tool ?? null, e.server ?? null,
          e.chars ?? 0, e.tokens ?? null, e.data ? maskJsonText(JSON.stringify(e.data)) : null).lastInsertRowid,
    );
  }

  call(id: number): CallRow | undefined {
    return stmt(this.db, "SELECT * FROM calls WHERE id = ?").get(id) as CallRow | undefined;
  }

  callsOfSession(sessionId: string, limit = 1000, afterId = 0): CallRow[] {
    return stmt(this.db, "SELECT * FROM calls WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?")
      .all(sessionId, afterId, limit) as CallRow[];
  }

  eventsOfBlob(blobId: string, limit = 1000): EventRow[] {
    return stmt(this.db, "SELECT * FROM events WHERE blob_id = ? ORDER BY id LIMIT ?").all(blobId, limit) as EventRow[];
  }

  eventsOfSession(sessionId: string, limit = 5000): EventRow[] {
    return stmt(this.db, "SELECT * FROM events WHERE session_id = ? ORDER BY id LIMIT ?").all(sessionId, limit) as EventRow[];
  }

  recentEvents(limit = 100, type?: EventType): EventRow[] {
    return (type
      ? stmt(this.db, "SELECT * FROM events WHERE type = ? ORDER BY id DESC LIMIT ?").all(type, limit)
      : stmt(this.db, "SELECT * FROM events ORDER BY id DESC LIMIT ?").all(limit)) as EventRow[];
  }
}
