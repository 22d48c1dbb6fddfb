/**
 * A session's timeline: its calls in order, each with what the tool returned beside what the
 * model was given, then the fetches, recalls and expansions that touched the call's result.
 */
import type { Db } from "../db";
import type { CallRow, EventRow } from "../ledger";
import type { BlobMeta } from "../../types";
import type { LedgerEvent, TextPreview, TimelineCall, TimelinePage } from "./readModel";
import { toCallRef, toLedgerEvent } from "./ledgerRows";

/** Chars of the raw result shipped per call (the blob view has the rest). */
export const RAW_PREVIEW_CHARS = 2_000;
/** Handles are capped by `excerpt.maxChars` plus a header; this keeps any of them whole. */
export const GIVEN_PREVIEW_CHARS = 16_000;

const TOUCH_TYPES = new Set(["fetch", "recall", "expansion"]);

export interface TimelineDeps {
  db: Db;
  meta(id: string): BlobMeta | null;
  /** The head of a stored blob, masked where it is credential-labelled; null when gone. */
  head(id: string, maxChars: number): { text: string; totalChars: number } | null;
}

function preview(text: string, max: number, source: TextPreview["source"], totalChars = text.length): TextPreview {
  return { text: text.slice(0, max), totalChars, truncated: totalChars > max || text.length > max, source };
}

function rawOf(d: TimelineDeps, c: CallRow): TextPreview {
  if (c.raw_text !== null) return preview(c.raw_text, RAW_PREVIEW_CHARS, "ledger");
  if (c.blob_id) {
    const h = d.head(c.blob_id, RAW_PREVIEW_CHARS);
    if (h) return preview(h.text, RAW_PREVIEW_CHARS, "blob", h.totalChars);
  }
  return { text: "", totalChars: c.returned_chars, truncated: c.returned_chars > 0, source: "missing" };
}

function givenOf(c: CallRow, raw: TextPreview): TextPreview {
  if (c.given_text !== null) return preview(c.given_text, GIVEN_PREVIEW_CHARS, "ledger");
  // No given text in the ledger means the model got the result itself.
  return { ...raw, totalChars: c.given_chars };
}

export function sessionTimeline(
  d: TimelineDeps,
  sessionId: string,
  afterCallId: number,
  limit: number,
): TimelinePage {
  const rows = d.db
    .prepare("SELECT * FROM calls WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?")
    .all(sessionId, afterCallId, limit + 1) as CallRow[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  if (page.length === 0) return { calls: [], other: [], nextAfter: null };
  const first = page[0]!.id;
  const last = page[page.length - 1]!.id;
  // The event id of each call's own record orders calls against the fetches that followed them.
  const own = d.db
    .prepare("SELECT id, call_id FROM events WHERE call_id BETWEEN ? AND ? AND session_id = ? AND type IN ('rescue', 'stub', 'passthrough')")
    .all(first, last, sessionId) as { id: number; call_id: number }[];
  const eventIdOfCall = new Map(own.map((r) => [r.call_id, r.id]));
  const startEvent = eventIdOfCall.get(first) ?? 0;
  const endEvent = more ? (d.db.prepare("SELECT MIN(id) AS id FROM events WHERE call_id = ?").get(rows[limit]!.id) as { id: number | null }).id : null;
  const events = (
    d.db
      .prepare(
        `SELECT * FROM events WHERE session_id = ? AND id >= ? AND (? IS NULL OR id < ?)
         AND type NOT IN ('rescue', 'stub', 'passthrough') ORDER BY id LIMIT 20000`,
      )
      .all(sessionId, startEvent, endEvent, endEvent) as EventRow[]
  ).map(toLedgerEvent);

  const calls: TimelineCall[] = page.map((c) => {
    const raw = rawOf(d, c);
    const meta = c.blob_id ? d.meta(c.blob_id) : null;
    return {
      call: { ...toCallRef(c), argsJson: c.args_json },
      raw,
      given: givenOf(c, raw),
      blob: meta ? { id: meta.id, kind: meta.kind, label: meta.label, state: meta.state, chars: meta.chars } : null,
      touches: [],
    };
  });
  // Each read of a blob belongs to the latest earlier call in this session that returned it.
  const latestByBlob = new Map<string, TimelineCall>();
  const other: LedgerEvent[] = [];
  const ordered = calls.map((tc) => ({ at: eventIdOfCall.get(tc.call.id) ?? 0, tc }));
  let k = 0;
  for (const e of events) {
    while (k < ordered.length && ordered[k]!.at <= e.id) {
      const { tc } = ordered[k]!;
      if (tc.call.blobId) latestByBlob.set(tc.call.blobId, tc);
      k++;
    }
    const owner = e.blobId && TOUCH_TYPES.has(e.type) ? latestByBlob.get(e.blobId) : undefined;
    if (owner) owner.touches.push(e);
    else other.push(e);
  }
  return { calls, other, nextAfter: more ? last : null };
}
