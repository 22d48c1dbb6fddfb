/**
 * The rest of a call's record, beyond what the interception path writes: calls that produced no
 * result (an upstream crash, timeout or refusal, an unknown tool), each call's duration, its
 * JSON-RPC, its images and audio, the expansions made for it, and a structuredContent part joined
 * to its call. Everything kept is masked. Never throws: the agent's call must not break because
 * its record could not be completed (the failure is logged).
 */
import { canonicalJson } from "../dedup/dedup";
import { describeError } from "../errors";
import type { MediaRecord } from "../store/ledger";
import { redactRuns } from "../sensitivity/fetchArgsMask";
import { keptJson, keptText, RPC_GIVEN_STRING_MAX_CHARS } from "./auditText";
import type { EngineParts } from "./parts";
import type { RawRecordKind } from "../vocabulary";

/** A call that produced no result; `message` is the sentence the model was given instead. */
export interface FailedCallInput {
  sessionId: string;
  startedAt?: number | null;
  tool: string;
  server: string | null;
  args: unknown;
  message: string;
  durationMs?: number | null;
  upstreamMs?: number | null;
}

/** The raw record of a call, as objects: the engine masks and cuts them before they are kept. */
export interface RpcInput {
  /** "jsonrpc" (default): an MCP request and response; "hook": the hook request a host sent and Spillway's answer. */
  kind?: RawRecordKind;
  request: unknown;
  response?: unknown;
  /** What Spillway sent upstream (arguments expanded) and what the upstream answered; for a hook call, the PreToolUse request and answer that expanded its arguments. */
  upstreamRequest?: unknown;
  upstreamResponse?: unknown;
}

export interface CallNoteInput {
  /** When the call reached Spillway (the engine clock's ms). */
  startedAt?: number | null;
  durationMs?: number | null;
  upstreamMs?: number | null;
  /** The call this row is a part of (the structuredContent of that call, stored beside its text). */
  partOf?: number | null;
  rpc?: RpcInput;
  media?: MediaRecord[];
  /** Ledger events of the `spill:` expansions made for this call's arguments. */
  expansionEventIds?: readonly number[];
}

export interface ReadNoteInput {
  durationMs?: number | null;
  rpc?: RpcInput;
}

/** Images up to this many base64 chars are kept whole, as the call's thumbnail. */
const THUMB_MAX_CHARS = 256 * 1024;
const THUMB_MIMES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The image and audio items of an MCP result's content, by type and size; small images kept as thumbnails. */
export function mediaOf(content: unknown): MediaRecord[] {
  if (!Array.isArray(content)) return [];
  const out: MediaRecord[] = [];
  for (const c of content as { type?: unknown; data?: unknown; mimeType?: unknown }[]) {
    if (c?.type !== "image" && c?.type !== "audio") continue;
    const data = typeof c.data === "string" ? c.data : "";
    const mime = typeof c.mimeType === "string" ? c.mimeType : null;
    const bytes = Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
    const thumb =
      c.type === "image" && mime && THUMB_MIMES.has(mime) && data.length <= THUMB_MAX_CHARS && /^[A-Za-z0-9+/=\s]*$/.test(data)
        ? data
        : null;
    out.push({ type: c.type, mime, bytes: Math.max(0, bytes), thumb });
  }
  return out;
}

function rpcRecord(rpc: RpcInput, redact: readonly string[] = []) {
  const r = <T>(v: T) => redactRuns(v, redact);
  return {
    request: keptJson(r(rpc.request), RPC_GIVEN_STRING_MAX_CHARS) ?? "null",
    response: keptJson(r(rpc.response), RPC_GIVEN_STRING_MAX_CHARS),
    upstreamRequest: keptJson(r(rpc.upstreamRequest)),
    upstreamResponse: keptJson(r(rpc.upstreamResponse)),
    kind: rpc.kind,
  };
}

export function recordFailedCall(p: EngineParts, input: FailedCallInput): number | null {
  try {
    return p.store.transaction(() => {
      const now = p.store.now;
      p.sessions.touch(input.sessionId, now);
      const message = keptText(input.message);
      const callId = p.ledger.insertCall({
        sessionId: input.sessionId,
        ts: now,
        tool: input.tool,
        server: input.server,
        argsJson: input.args === undefined ? null : keptText(canonicalJson(input.args)),
        outcome: "error",
        blobId: null,
        isError: true,
        // The sentence is the call's whole result, as far as the model is concerned: net zero.
        returnedChars: message.length,
        givenChars: message.length,
        rawText: message,
        givenText: null,
      });
      p.ledger.noteCall(callId, { startedAt: input.startedAt, durationMs: round(input.durationMs), upstreamMs: round(input.upstreamMs) });
      p.ledger.insertEvent({
        ts: now,
        type: "error",
        sessionId: input.sessionId,
        callId,
        tool: input.tool,
        server: input.server,
        chars: message.length,
        data: { returned: message.length },
      });
      p.countCallTokens(callId, message, message);
      p.emit({ type: "call", sessionId: input.sessionId, callId, outcome: "error", blobId: null });
      return callId;
    }, "immediate");
  } catch (err) {
    p.logger.error("recording a failed call failed", { tool: input.tool, session: input.sessionId, error: describeError(err) });
    return null;
  }
}

export function noteCall(p: EngineParts, callId: number, note: CallNoteInput): void {
  try {
    p.store.transaction(() => {
      p.ledger.noteCall(callId, {
        startedAt: note.startedAt,
        durationMs: round(note.durationMs),
        upstreamMs: round(note.upstreamMs),
        partOf: note.partOf,
      });
      if (note.rpc) p.ledger.insertRpc({ callId, ...rpcRecord(note.rpc) });
      if (note.media?.length) p.ledger.insertMedia(callId, note.media);
      if (note.expansionEventIds?.length) p.ledger.linkEvents(callId, note.expansionEventIds);
    });
  } catch (err) {
    p.logger.error("completing a call's record failed", { callId, error: describeError(err) });
  }
}

export function noteRead(p: EngineParts, eventId: number, note: ReadNoteInput): void {
  try {
    p.store.transaction(() => {
      const ms = round(note.durationMs);
      if (ms !== null && ms !== undefined) p.ledger.setEventDuration(eventId, ms);
      // A fetch's pattern that names a secret by its bare value: masked in its JSON-RPC too.
      const redact = p.pendingRedactions.get(eventId);
      p.pendingRedactions.delete(eventId);
      if (note.rpc) p.ledger.insertRpc({ eventId, ...rpcRecord(note.rpc, redact) });
    });
  } catch (err) {
    p.logger.error("completing a read's record failed", { eventId, error: describeError(err) });
  }
}

/** Whole milliseconds (sub-millisecond calls show as 0, not as missing). */
function round(ms: number | null | undefined): number | null | undefined {
  return typeof ms === "number" && Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : ms;
}
