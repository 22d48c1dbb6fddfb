/**
 * The ledger: one row per intercepted call, one row per event. The inspector and savings read it.
 * Nothing credential-shaped is written in clear: a call's arguments and texts and an event's data
 * (a grep pattern holding a key) are masked on the way in; the exact bytes live only in the blob.
 */
import { maskJsonText } from "../sensitivity/jsonText";
import { maskSecrets } from "../sensitivity/secrets";
import type { EventType, Outcome } from "../types";
import type { RawRecordKind } from "../vocabulary";
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
  /** What the model was given by this event (a fetch answer, a recall, a denial note), already masked. */
  text?: string | null;
  durationMs?: number | null;
}

/** What is known about a call beyond its result, once it has been answered. */
export interface CallNote {
  /** When the call reached Spillway (ms); `ts` is when its result was recorded. */
  startedAt?: number | null;
  durationMs?: number | null;
  /** The part of the duration spent waiting for the upstream server. */
  upstreamMs?: number | null;
  /** The call this row is a part of (a structuredContent stored beside the text content). */
  partOf?: number | null;
}

/** The JSON-RPC of one call as the proxy saw it, masked and with long strings cut. */
export interface RpcRecord {
  callId?: number | null;
  eventId?: number | null;
  request: string;
  response: string | null;
  upstreamRequest?: string | null;
  upstreamResponse?: string | null;
  /** Default "jsonrpc". */
  kind?: RawRecordKind;
}

/** An image or audio item of a result: never rescued, recorded by type and size. */
export interface MediaRecord {
  type: string;
  mime: string | null;
  bytes: number;
  /** A small image kept whole (base64), to show as a thumbnail. */
  thumb: string | null;
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
  duration_ms: number | null;
  /** When its answer and JSON-RPC were removed (store.detailTtlDays); null while kept. */
  detail_pruned_at: number | null;
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
  /** 1 when the token counts were estimated from a sample. */
  tokens_estimated: number;
  raw_text: string | null;
  given_text: string | null;
  started_at: number | null;
  duration_ms: number | null;
  upstream_ms: number | null;
  part_of: number | null;
  /** When its detail was removed (store.detailTtlDays): texts and arguments cut to a preview, raw record gone. Null while kept. */
  detail_pruned_at: number | null;
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
      ).run(
        c.sessionId,
        c.ts,
        c.tool,
        c.server,
        c.argsJson === null ? null : maskJsonText(c.argsJson),
        c.outcome,
        c.blobId,
        c.isError ? 1 : 0,
        c.returnedChars,
        c.givenChars,
        masked(c.rawText),
        masked(c.givenText),
      ).lastInsertRowid,
    );
  }

  /** The call's token counts; `estimated` when either was extrapolated from a sample (a big result). */
  setCallTokens(callId: number, returnedTokens: number, givenTokens: number, estimated = false): void {
    stmt(this.db, "UPDATE calls SET returned_tokens = ?, given_tokens = ?, tokens_estimated = ? WHERE id = ?").run(
      returnedTokens,
      givenTokens,
      estimated ? 1 : 0,
      callId,
    );
  }

  /** A read event's token count, counted after the answer went out. */
  setEventTokens(eventId: number, tokens: number): void {
    stmt(this.db, "UPDATE events SET tokens = ? WHERE id = ?").run(tokens, eventId);
  }

  insertEvent(e: EventRecord): number {
    const id = Number(
      stmt(
        this.db,
        `INSERT INTO events (ts, type, session_id, blob_id, call_id, tool, server, chars, tokens, data_json, duration_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        e.ts,
        e.type,
        e.sessionId ?? null,
        e.blobId ?? null,
        e.callId ?? null,
        e.tool ?? null,
        e.server ?? null,
        e.chars ?? 0,
        e.tokens ?? null,
        e.data ? maskJsonText(JSON.stringify(e.data)) : null,
        e.durationMs ?? null,
      ).lastInsertRowid,
    );
    if (typeof e.text === "string") {
      stmt(this.db, "INSERT INTO event_texts (event_id, blob_id, text, chars) VALUES (?, ?, ?, ?)").run(
        id,
        e.blobId ?? null,
        e.text,
        e.text.length,
      );
    }
    return id;
  }

  /** Adds what the proxy learnt about a call once it was answered; fields left undefined keep their value. */
  noteCall(callId: number, n: CallNote): void {
    stmt(
      this.db,
      `UPDATE calls SET started_at = COALESCE(?, started_at), duration_ms = COALESCE(?, duration_ms), upstream_ms = COALESCE(?, upstream_ms),
         part_of = COALESCE(?, part_of) WHERE id = ?`,
    ).run(n.startedAt ?? null, n.durationMs ?? null, n.upstreamMs ?? null, n.partOf ?? null, callId);
  }

  setEventDuration(eventId: number, durationMs: number): void {
    stmt(this.db, "UPDATE events SET duration_ms = ? WHERE id = ?").run(durationMs, eventId);
  }

  /** Ties events (the expansions of a call's arguments) to the call they were made for. */
  linkEvents(callId: number, eventIds: readonly number[]): void {
    const st = stmt(this.db, "UPDATE events SET call_id = ? WHERE id = ? AND call_id IS NULL");
    for (const id of eventIds) st.run(callId, id);
  }

  insertRpc(r: RpcRecord): void {
    stmt(
      this.db,
      "INSERT INTO rpc_log (call_id, event_id, request, response, upstream_request, upstream_response, kind) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(
      r.callId ?? null,
      r.eventId ?? null,
      r.request,
      r.response,
      r.upstreamRequest ?? null,
      r.upstreamResponse ?? null,
      r.kind ?? "jsonrpc",
    );
  }

  insertMedia(callId: number, items: readonly MediaRecord[]): void {
    const st = stmt(this.db, "INSERT OR REPLACE INTO call_media (call_id, idx, type, mime, bytes, thumb) VALUES (?, ?, ?, ?, ?, ?)");
    items.forEach((m, i) => st.run(callId, i, m.type, m.mime, m.bytes, m.thumb));
  }

  /** The type of the session's newest event, or null. */
  lastEventType(sessionId: string): EventType | null {
    const r = stmt(this.db, "SELECT type FROM events WHERE session_id = ? ORDER BY id DESC LIMIT 1").get(sessionId) as
      { type: EventType } | undefined;
    return r?.type ?? null;
  }

  /** How the session was last given this blob in full or as a handle ("passthrough" or "rescued"), or null. */
  lastDelivery(sessionId: string, blobId: string): "passthrough" | "rescued" | null {
    const r = stmt(
      this.db,
      "SELECT outcome FROM calls WHERE blob_id = ? AND session_id = ? AND outcome IN ('passthrough', 'rescued') ORDER BY id DESC LIMIT 1",
    ).get(blobId, sessionId) as { outcome: "passthrough" | "rescued" } | undefined;
    return r?.outcome ?? null;
  }

  call(id: number): CallRow | undefined {
    return stmt(this.db, "SELECT * FROM calls WHERE id = ?").get(id) as CallRow | undefined;
  }

  callsOfSession(sessionId: string, limit = 1000, afterId = 0): CallRow[] {
    return stmt(this.db, "SELECT * FROM calls WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?").all(
      sessionId,
      afterId,
      limit,
    ) as CallRow[];
  }

  eventsOfBlob(blobId: string, limit = 1000): EventRow[] {
    return stmt(this.db, "SELECT * FROM events WHERE blob_id = ? ORDER BY id LIMIT ?").all(blobId, limit) as EventRow[];
  }

  eventsOfSession(sessionId: string, limit = 5000): EventRow[] {
    return stmt(this.db, "SELECT * FROM events WHERE session_id = ? ORDER BY id LIMIT ?").all(sessionId, limit) as EventRow[];
  }

  recentEvents(limit = 100, type?: EventType): EventRow[] {
    return (
      type
        ? stmt(this.db, "SELECT * FROM events WHERE type = ? ORDER BY id DESC LIMIT ?").all(type, limit)
        : stmt(this.db, "SELECT * FROM events ORDER BY id DESC LIMIT ?").all(limit)
    ) as EventRow[];
  }
}
