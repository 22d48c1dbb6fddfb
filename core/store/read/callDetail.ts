/**
 * One call opened, and one ledger event opened: the texts the audit trail keeps of them (what the
 * tool returned, what the model was given, each read's answer), its images and its JSON-RPC.
 */
import type { CallRow, EventRow } from "../ledger";
import type { CallDetail, CallPart, EventDetail, MediaItem, ReadEvent, RpcView, TextPreview } from "./readModel";
import type { RawRecordKind } from "../../vocabulary";
import { toCallRef, toLedgerEvent } from "./ledgerRows";
import { callBlob, qmarks, summarize, type TimelineDeps } from "./timeline";

/** Chars of the raw result shipped per call (the blob view has the rest). */
export const RAW_PREVIEW_CHARS = 2_000;
/** Handles are capped by `excerpt.maxChars` plus a header; this keeps any of them whole. */
export const GIVEN_PREVIEW_CHARS = 16_000;
/** Chars of each read's answer shipped with its call (events.get has up to EVENT_TEXT_MAX_CHARS). */
export const ANSWER_PREVIEW_CHARS = 8_000;
export const EVENT_TEXT_MAX_CHARS = 200_000;

export interface DetailDeps extends TimelineDeps {
  /** The head of a stored blob, masked where it is credential-labelled; null when gone. */
  head(id: string, maxChars: number): { text: string; totalChars: number } | null;
}

function preview(text: string, max: number, source: TextPreview["source"], totalChars = text.length): TextPreview {
  return { text: text.slice(0, max), totalChars, truncated: totalChars > max || text.length > max, source };
}

/** Nothing to show: not kept, or removed with the call's old detail. */
function absent(c: CallRow, totalChars: number): TextPreview {
  return { text: "", totalChars, truncated: totalChars > 0, source: c.detail_pruned_at !== null ? "pruned" : "missing" };
}

function rawOf(d: DetailDeps, c: CallRow): TextPreview {
  if (c.raw_text !== null) return preview(c.raw_text, RAW_PREVIEW_CHARS, "ledger");
  if (c.blob_id) {
    const h = d.head(c.blob_id, RAW_PREVIEW_CHARS);
    if (h) return preview(h.text, RAW_PREVIEW_CHARS, "blob", h.totalChars);
  }
  return absent(c, c.returned_chars);
}

function givenOf(c: CallRow, raw: TextPreview): TextPreview {
  if (c.given_text !== null) return preview(c.given_text, GIVEN_PREVIEW_CHARS, "ledger");
  // A handle or a stub removed with the call's old detail (a pass-through's given text is its result).
  if (c.detail_pruned_at !== null && c.outcome !== "passthrough" && c.outcome !== "failed_open") return absent(c, c.given_chars);
  // No given text in the ledger means the model got the result itself.
  return { ...raw, totalChars: c.given_chars };
}

function texts(d: DetailDeps, ids: number[]): Map<number, { text: string; chars: number }> {
  if (!ids.length) return new Map();
  const rows = d.db.prepare(`SELECT event_id, text, chars FROM event_texts WHERE event_id IN (${qmarks(ids.length)})`).all(...ids) as {
    event_id: number;
    text: string;
    chars: number;
  }[];
  return new Map(rows.map((r) => [r.event_id, { text: r.text, chars: r.chars }]));
}

function withAnswers(d: DetailDeps, events: EventRow[], max: number): ReadEvent[] {
  const t = texts(
    d,
    events.map((e) => e.id),
  );
  return events.map((e) => {
    const kept = t.get(e.id);
    return {
      ...toLedgerEvent(e),
      answer: kept ? preview(kept.text, max, "ledger", kept.chars) : null,
      detailRemovedAt: e.detail_pruned_at ?? null,
    };
  });
}

interface RpcRow {
  kind: RawRecordKind;
  request: string;
  response: string | null;
  upstream_request: string | null;
  upstream_response: string | null;
}

function rpcOf(d: DetailDeps, where: "call_id" | "event_id", id: number): RpcView | null {
  const r = d.db
    .prepare(`SELECT kind, request, response, upstream_request, upstream_response FROM rpc_log WHERE ${where} = ? ORDER BY id DESC LIMIT 1`)
    .get(id) as RpcRow | undefined;
  return r
    ? { kind: r.kind, request: r.request, response: r.response, upstreamRequest: r.upstream_request, upstreamResponse: r.upstream_response }
    : null;
}

function mediaWithThumbs(d: DetailDeps, ids: number[]): MediaItem[] {
  return (
    d.db
      .prepare(`SELECT type, mime, bytes, thumb FROM call_media WHERE call_id IN (${qmarks(ids.length)}) ORDER BY call_id, idx`)
      .all(...ids) as MediaItem[]
  ).map((m) => ({ type: m.type, mime: m.mime, bytes: m.bytes, thumb: m.thumb ?? null }));
}

/** A call with everything the audit trail has of it; a part's id opens its whole call. Null when unknown. */
export function callDetail(d: DetailDeps, callId: number): CallDetail | null {
  let row = d.db.prepare("SELECT * FROM calls WHERE id = ?").get(callId) as CallRow | undefined;
  if (row?.part_of) row = d.db.prepare("SELECT * FROM calls WHERE id = ?").get(row.part_of) as CallRow | undefined;
  if (!row) return null;
  const main = row;
  const { summaries, all, attribution } = summarize(d, main.session_id, [main]);
  const raw = rawOf(d, main);
  const parts: CallPart[] = all
    .filter((c) => c.part_of === main.id)
    .map((c) => {
      const r = rawOf(d, c);
      return { call: toCallRef(c), raw: r, given: givenOf(c, r), blob: callBlob(c.blob_id ? d.meta(c.blob_id) : null) };
    });
  return {
    call: { ...summaries[0]!, argsJson: main.args_json },
    raw,
    given: givenOf(main, raw),
    parts,
    reads: withAnswers(d, attribution.reads.get(main.id) ?? [], ANSWER_PREVIEW_CHARS),
    received: withAnswers(d, attribution.received.get(main.id) ?? [], ANSWER_PREVIEW_CHARS),
    media: mediaWithThumbs(
      d,
      all.map((c) => c.id),
    ),
    rpc: rpcOf(d, "call_id", main.id),
    detailRemovedAt: main.detail_pruned_at ?? null,
  };
}

/** One ledger event with the answer it gave (up to EVENT_TEXT_MAX_CHARS) and its JSON-RPC. Null when unknown. */
export function eventDetail(d: DetailDeps, eventId: number): EventDetail | null {
  const e = d.db.prepare("SELECT * FROM events WHERE id = ?").get(eventId) as EventRow | undefined;
  if (!e) return null;
  return { event: withAnswers(d, [e], EVENT_TEXT_MAX_CHARS)[0]!, rpc: rpcOf(d, "event_id", e.id) };
}
