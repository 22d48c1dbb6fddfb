/**
 * The read model of one call as the audit trail shows it: a row of a session's call table, and
 * the call opened (what the tool returned beside what the model was given, every read of its
 * result with the answer, what it was passed by reference, its images, its JSON-RPC). Pure types.
 */
import type { BlobState, Kind, Label, Outcome } from "../../types";
import type { CallRef, LedgerEvent, TextPreview } from "./readModel";
import type { RawRecordKind } from "../../vocabulary";

/** The blob a call's result was stored as. */
export interface CallBlob {
  id: string;
  kind: Kind;
  label: Label;
  state: BlobState;
  chars: number;
}

/** An image or audio item of a result (never rescued). `thumb` is base64 of a small image, in a call's detail only. */
export interface MediaItem {
  type: string;
  mime: string | null;
  bytes: number;
  thumb?: string | null;
}

/** `spill:` tokens in a call's arguments: how many were expanded or denied, and what flowed. */
export interface ByReference {
  expanded: number;
  denied: number;
  chars: number;
  /** Tokens of the content that flowed, when its producing call was counted. */
  tokens: number;
}

/** One call as a row of a session's call table; figures summed over its parts. */
export interface CallSummary extends CallRef {
  /** The id of the call's own ledger event: orders calls against the session's other events. */
  seq: number;
  /**
   * Why Spillway delivered the result whole or stubbed it, when not the usual way: `new_generation`
   * (in full again after a compaction), `streak_guard`, `near_duplicate`, `echo`,
   * `no_spillway_tools` (a hook's session whose model had no tool to read a handle), or a repaired copy.
   */
  reason: string | null;
  /** When the call reached Spillway; else ts minus the duration (a host's report); else ts. */
  startedAt: number;
  upstreamMs: number | null;
  argsPreview: string | null;
  /** The start of the sentence the model got for a failed call or an error result. */
  errorText: string | null;
  /** A structuredContent stored apart from the text: 1; else 0. */
  parts: number;
  blob: CallBlob | null;
  /** Fetches and recalls of the result in this session (refused ones counted apart). */
  reads: { count: number; chars: number; tokens: number; refused: number };
  /** What this call was passed by reference. */
  received: ByReference;
  media: MediaItem[];
}

/** A read (fetch, recall, expansion) with what the model was given by it. */
export interface ReadEvent extends LedgerEvent {
  /** The answer as the model got it (masked); null when not kept (a resource read gives the whole blob). */
  answer: TextPreview | null;
  /** When its answer and JSON-RPC were removed as old detail (store.detailTtlDays); null while kept. */
  detailRemovedAt: number | null;
}

/** A call's raw record (masked, long strings cut), pretty-printed: its JSON-RPC, or the hook request and Spillway's answer. */
export interface RpcView {
  kind: RawRecordKind;
  request: string;
  response: string | null;
  /** What Spillway sent upstream (arguments expanded) and the upstream's answer, for proxied calls; for a hook call, the PreToolUse exchange that expanded its arguments. */
  upstreamRequest: string | null;
  upstreamResponse: string | null;
}

/** A part of a call: the structuredContent, stored as its own blob. */
export interface CallPart {
  call: CallRef;
  raw: TextPreview;
  given: TextPreview;
  blob: CallBlob | null;
}

/** One call opened: every text and record the audit trail has of it. */
export interface CallDetail {
  call: CallSummary & { argsJson: string | null };
  /** What the tool returned. */
  raw: TextPreview;
  /** What the model was given: the handle, the stub or the result itself. */
  given: TextPreview;
  parts: CallPart[];
  /** Fetches, recalls and expansions of its result in this session, each with its answer. */
  reads: ReadEvent[];
  /** The `spill:` expansions made for its arguments (what flowed in, what was denied and why). */
  received: ReadEvent[];
  media: MediaItem[];
  rpc: RpcView | null;
  /**
   * When the call's detail was removed as old (store.detailTtlDays): its raw record, the texts it
   * returned and was given (its arguments, or a failure's sentence, kept as a preview) and
   * thumbnails. Its figures and reads stay. Null while kept.
   */
  detailRemovedAt: number | null;
}

/** One ledger event opened: what the model was given by it, and its JSON-RPC. */
export interface EventDetail {
  event: ReadEvent;
  rpc: RpcView | null;
}

/** A filter over all of a session's calls, answered by the store a page at a time. */
export interface CallQuery {
  sessionId: string;
  /** Only calls of this tool (its name as the agent called it). */
  tool?: string | undefined;
  outcome?: Outcome | undefined;
  /** Only calls that failed, returned an error, had a read of their result refused or a reference denied. */
  failuresOnly?: boolean | undefined;
  /** Case-insensitive (ASCII) substring of the tool, server, arguments, blob id or error text. */
  text?: string | undefined;
  afterCallId: number;
  limit: number;
}

/** A page of the calls matching a `CallQuery`, with how many match in the whole session. */
export interface CallQueryPage {
  calls: CallSummary[];
  /** With `failuresOnly`: the refused reads of ids no call of the session returned, between these calls. */
  marks: LedgerEvent[];
  nextAfter: number | null;
  /** Calls of the whole session that match, and that there are. */
  matched: number;
  total: number;
  /** Every tool the session called, most called first, for a tool filter. */
  tools: { tool: string; calls: number }[];
}
