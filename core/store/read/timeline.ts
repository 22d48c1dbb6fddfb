/**
 * A session's call table, a page at a time: each call summed over its parts, with its duration,
 * how often its result was read back, what it was passed by reference and its images; and between
 * the calls, the session's own marks (turns, compactions, reads of ids no call of it returned).
 */
import type { Db } from "../db";
import type { CallRow, EventRow } from "../ledger";
import type { BlobMeta } from "../../types";
import { CALL_EVENT_TYPES } from "../../vocabulary";
import type { CallBlob, CallSummary, LedgerEvent, MediaItem, TimelinePage } from "./readModel";
import { toCallRef, toLedgerEvent } from "./ledgerRows";

/** Constant SQL list of the call event types (no user value is interpolated). */
export const CALL_TYPES_SQL = CALL_EVENT_TYPES.map((t) => `'${t}'`).join(", ");
const CALL_TYPES: ReadonlySet<string> = new Set(CALL_EVENT_TYPES);
const READ_TYPES: ReadonlySet<string> = new Set(["fetch", "recall"]);
/** Chars of a call's arguments and of a failure's sentence a row of the table shows (and old detail keeps). */
export const ROW_PREVIEW_CHARS = 300;
/** Marks listed per page at most (a session that fetched 100 k times between two calls still opens). */
const MARKS_MAX = 5_000;

export interface TimelineDeps {
  db: Db;
  meta(id: string): BlobMeta | null;
}

/** An expansion event with the token count of the content that flowed (from its producing call). */
export type ReceivedRow = EventRow & { ref_tokens: number | null };

/** Which reads and expansions belong to which call. */
export interface Attribution {
  /** Per main call: fetches, recalls and expansions of its result (and its parts'), oldest first. */
  reads: Map<number, EventRow[]>;
  /** Per main call: the expansions made for its arguments. */
  received: Map<number, ReceivedRow[]>;
}

/** `?, ?, ?` for an IN list of n values. */
export const qmarks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

function dataOf(e: EventRow): Record<string, unknown> {
  return toLedgerEvent(e).data ?? {};
}

export function callBlob(meta: BlobMeta | null): CallBlob | null {
  return meta ? { id: meta.id, kind: meta.kind, label: meta.label, state: meta.state, chars: meta.chars } : null;
}

/**
 * Each read of a blob belongs to the latest earlier call of the session that returned it; the
 * expansions of a call's arguments are tied to it by the proxy.
 */
export function attribute(db: Db, sessionId: string, calls: CallRow[]): Attribution {
  const mainOf = new Map(calls.map((c) => [c.id, c.part_of ?? c.id]));
  const reads = new Map<number, EventRow[]>();
  const received = new Map<number, ReceivedRow[]>();
  const blobs = [...new Set(calls.flatMap((c) => (c.blob_id ? [c.blob_id] : [])))];
  if (blobs.length) {
    const events = db
      .prepare(
        `SELECT * FROM events WHERE session_id = ? AND blob_id IN (${qmarks(blobs.length)})
         AND type IN (${CALL_TYPES_SQL}, 'fetch', 'recall', 'expansion') ORDER BY id`,
      )
      .all(sessionId, ...blobs) as EventRow[];
    const owner = new Map<string, number | null>();
    for (const e of events) {
      if (CALL_TYPES.has(e.type)) owner.set(e.blob_id!, e.call_id !== null ? (mainOf.get(e.call_id) ?? null) : null);
      else {
        const o = owner.get(e.blob_id!);
        if (o) reads.set(o, [...(reads.get(o) ?? []), e]);
      }
    }
  }
  const ids = [...mainOf.keys()];
  if (ids.length) {
    const rows = db
      .prepare(
        `SELECT e.*, (SELECT p.returned_tokens FROM calls p WHERE p.blob_id = e.blob_id AND p.returned_chars = e.chars
           AND p.returned_tokens IS NOT NULL LIMIT 1) AS ref_tokens
         FROM events e WHERE e.type = 'expansion' AND e.call_id IN (${qmarks(ids.length)}) ORDER BY e.id`,
      )
      .all(...ids) as ReceivedRow[];
    for (const r of rows) {
      const m = mainOf.get(r.call_id!)!;
      received.set(m, [...(received.get(m) ?? []), r]);
    }
  }
  return { reads, received };
}

function mediaOf(db: Db, ids: number[]): Map<number, MediaItem[]> {
  const out = new Map<number, MediaItem[]>();
  if (!ids.length) return out;
  const rows = db
    .prepare(`SELECT call_id, type, mime, bytes FROM call_media WHERE call_id IN (${qmarks(ids.length)}) ORDER BY call_id, idx`)
    .all(...ids) as {
    call_id: number;
    type: string;
    mime: string | null;
    bytes: number;
  }[];
  for (const r of rows) out.set(r.call_id, [...(out.get(r.call_id) ?? []), { type: r.type, mime: r.mime, bytes: r.bytes }]);
  return out;
}

/** The summaries of `page` (main calls, in order) with their parts' figures added. */
export function summarize(
  d: TimelineDeps,
  sessionId: string,
  page: CallRow[],
): { summaries: CallSummary[]; all: CallRow[]; attribution: Attribution } {
  const ids = page.map((c) => c.id);
  const parts = ids.length
    ? (d.db.prepare(`SELECT * FROM calls WHERE part_of IN (${qmarks(ids.length)}) ORDER BY id`).all(...ids) as CallRow[])
    : [];
  const all = [...page, ...parts];
  const allIds = all.map((c) => c.id);
  // The call's own event (the first of its types): its id orders it, its data says why Spillway did what it did.
  const ownEvent = new Map(
    (allIds.length
      ? (d.db
          .prepare(
            `SELECT call_id, MIN(id) AS id, json_extract(data_json, '$.reason') AS reason FROM events
               WHERE call_id IN (${qmarks(allIds.length)}) AND type IN (${CALL_TYPES_SQL}) GROUP BY call_id`,
          )
          .all(...allIds) as {
          call_id: number;
          id: number;
          reason: unknown;
        }[])
      : []
    ).map((r) => [r.call_id, { seq: r.id, reason: typeof r.reason === "string" ? r.reason : null }]),
  );
  const attribution = attribute(d.db, sessionId, all);
  const media = mediaOf(d.db, allIds);
  const summaries = page.map((c): CallSummary => {
    const own = parts.filter((p) => p.part_of === c.id);
    const sum = (f: (r: CallRow) => number | null) =>
      [c, ...own].reduce<number | null>((a, r) => (a === null || f(r) === null ? null : a + f(r)!), 0);
    const reads = (attribution.reads.get(c.id) ?? []).filter((e) => READ_TYPES.has(e.type));
    const okReads = reads.filter((e) => dataOf(e).error !== true);
    const got = attribution.received.get(c.id) ?? [];
    const expanded = got.filter((e) => dataOf(e).outcome === "expanded");
    const errorSource = c.outcome === "error" || c.is_error ? (c.raw_text ?? c.given_text) : null;
    return {
      ...toCallRef(c),
      returnedChars: sum((r) => r.returned_chars)!,
      givenChars: sum((r) => r.given_chars)!,
      returnedTokens: sum((r) => r.returned_tokens),
      givenTokens: sum((r) => r.given_tokens),
      tokensEstimated: [c, ...own].some((r) => r.tokens_estimated === 1),
      seq: ownEvent.get(c.id)?.seq ?? 0,
      reason: ownEvent.get(c.id)?.reason ?? null,
      startedAt: c.started_at ?? (c.duration_ms !== null ? c.ts - c.duration_ms : c.ts),
      upstreamMs: c.upstream_ms,
      argsPreview: c.args_json && c.args_json !== "{}" ? c.args_json.slice(0, ROW_PREVIEW_CHARS) : null,
      errorText: errorSource ? errorSource.slice(0, ROW_PREVIEW_CHARS) : null,
      parts: own.length,
      blob: callBlob(c.blob_id ? d.meta(c.blob_id) : null),
      reads: {
        count: okReads.length,
        chars: okReads.reduce((a, e) => a + e.chars, 0),
        tokens: okReads.reduce((a, e) => a + (e.tokens ?? 0), 0),
        refused: reads.length - okReads.length,
      },
      received: {
        expanded: expanded.length,
        denied: got.length - expanded.length,
        chars: expanded.reduce((a, e) => a + e.chars, 0),
        tokens: expanded.reduce((a, e) => a + (e.ref_tokens ?? 0), 0),
      },
      media: [c, ...own].flatMap((r) => media.get(r.id) ?? []),
    };
  });
  return { summaries, all, attribution };
}

/** Session events in [from, to) that belong to no call: turns, compactions, reads of ids no call of the session returned. */
export function sessionMarks(db: Db, sessionId: string, from: number, to: number | null): LedgerEvent[] {
  const rows = db
    .prepare(
      `SELECT * FROM events WHERE session_id = ? AND id >= ? AND (? IS NULL OR id < ?) AND call_id IS NULL
       AND type NOT IN (${CALL_TYPES_SQL}, 'label') ORDER BY id LIMIT ${MARKS_MAX}`,
    )
    .all(sessionId, from, to, to) as EventRow[];
  const blobs = [...new Set(rows.flatMap((r) => (r.blob_id ? [r.blob_id] : [])))];
  const produced = new Set(
    blobs.length
      ? (
          db
            .prepare(`SELECT DISTINCT blob_id FROM calls WHERE session_id = ? AND blob_id IN (${qmarks(blobs.length)})`)
            .all(sessionId, ...blobs) as { blob_id: string }[]
        ).map((r) => r.blob_id)
      : [],
  );
  return rows.filter((r) => !r.blob_id || !produced.has(r.blob_id)).map(toLedgerEvent);
}

export function sessionTimeline(d: TimelineDeps, sessionId: string, afterCallId: number, limit: number): TimelinePage {
  const rows = d.db
    .prepare("SELECT * FROM calls WHERE session_id = ? AND part_of IS NULL AND id > ? ORDER BY id LIMIT ?")
    .all(sessionId, afterCallId, limit + 1) as CallRow[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const { summaries } = summarize(d, sessionId, page);
  const seqOf = (id: number) =>
    (d.db.prepare(`SELECT MIN(id) AS id FROM events WHERE call_id = ? AND type IN (${CALL_TYPES_SQL})`).get(id) as { id: number | null })
      .id;
  // The first page also holds what happened before the first call; the last, what followed the last.
  const from = afterCallId === 0 ? 0 : (summaries[0]?.seq ?? Number.MAX_SAFE_INTEGER);
  const to = more ? seqOf(rows[limit]!.id) : null;
  return { calls: summaries, marks: sessionMarks(d.db, sessionId, from, to), nextAfter: more ? page[page.length - 1]!.id : null };
}
