/** Ledger rows mapped to the inspector's shapes. */
import type { CallRow, EventRow } from "../ledger";
import type { CallRef, LedgerEvent } from "./readModel";

function parseData(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { unparsed: json };
  }
}

export function toLedgerEvent(r: EventRow): LedgerEvent {
  return {
    id: r.id,
    ts: r.ts,
    type: r.type,
    sessionId: r.session_id,
    blobId: r.blob_id,
    callId: r.call_id,
    tool: r.tool,
    server: r.server,
    chars: r.chars,
    tokens: r.tokens,
    data: parseData(r.data_json),
    durationMs: r.duration_ms ?? null,
  };
}

export function toCallRef(r: CallRow): CallRef {
  return {
    id: r.id,
    sessionId: r.session_id,
    ts: r.ts,
    tool: r.tool,
    server: r.server,
    outcome: r.outcome,
    blobId: r.blob_id,
    isError: r.is_error === 1,
    returnedChars: r.returned_chars,
    returnedTokens: r.returned_tokens,
    givenChars: r.given_chars,
    givenTokens: r.given_tokens,
    tokensEstimated: r.tokens_estimated === 1,
    durationMs: r.duration_ms ?? null,
    partOf: r.part_of ?? null,
  };
}
