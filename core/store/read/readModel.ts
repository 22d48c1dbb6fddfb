/**
 * The read model's shapes: what the store answers about blobs, calls, events and sessions.
 * Pure types (the inspector's API re-exports them and the renderer imports them as types).
 */
import type { BlobMeta, BlobState, EventType, Kind, Label, Outcome } from "../../types";
import type { BlobRole, BlobSortKey, SessionSortKey } from "../../vocabulary";
import type { CallSummary } from "./callModel";

export type { BlobRole, BlobSortKey, SessionSortKey };

/** The stored part of a store's figures (the cap comes from config). */
export interface StoreStats {
  blobs: { live: number; pinned: number; tombstoned: number; encrypted: number };
  usedBytes: number;
  sessions: number;
  calls: number;
  lastCallAt: number | null;
}

/** A filter of the blobs table. */
export interface BlobFilter {
  /** Matches the id, tool, server or shape (case-insensitive substring). */
  text?: string | undefined;
  tool?: string | undefined;
  sessionId?: string | undefined;
  kinds?: Kind[] | undefined;
  labels?: Label[] | undefined;
  states?: BlobState[] | undefined;
  minChars?: number | undefined;
  maxChars?: number | undefined;
  /** createdAt bounds in ms, inclusive. */
  from?: number | undefined;
  to?: number | undefined;
  role?: BlobRole | undefined;
}

export interface BlobListQuery {
  offset: number;
  limit: number;
  sort: { by: BlobSortKey; dir: "asc" | "desc" };
  filter: BlobFilter;
}

export interface SessionListQuery {
  offset: number;
  limit: number;
  query?: string | undefined;
  sort: { by: SessionSortKey; dir: "asc" | "desc" };
  /** true: only sessions imported from agents' histories; false: only live ones; absent: both. */
  imported?: boolean | undefined;
  /** Only imported sessions of this agent. */
  agent?: string | undefined;
}

/** The handle the model was given the last time a content was rescued. */
export interface StoredHandle {
  text: string;
  callId: number;
  sessionId: string;
  ts: number;
}

/** One page of a session's call table, before the session summary is attached. */
export interface TimelinePage {
  calls: CallSummary[];
  /** Session events between these calls that belong to no call: turns, compactions, reads of ids no call of this session returned. */
  marks: LedgerEvent[];
  nextAfter: number | null;
}

/** One ledger event as the inspector shows it. */
export interface LedgerEvent {
  id: number;
  ts: number;
  type: EventType;
  sessionId: string | null;
  blobId: string | null;
  callId: number | null;
  tool: string | null;
  server: string | null;
  chars: number;
  tokens: number | null;
  data: Record<string, unknown> | null;
  durationMs: number | null;
}

/** A row of the blobs table: the index metadata plus why a tombstone went. */
export interface BlobRow extends BlobMeta {
  tombstoneReason: string | null;
  /**
   * Whether the model was ever given a handle for it ("rescued"), or only ever the content itself
   * or a stub: a copy kept so repeats can be stubbed ("dedup"). Listed rows only; else undefined.
   */
  role?: BlobRole;
}

export interface BlobList {
  total: number;
  offset: number;
  rows: BlobRow[];
}

export interface BlobFacets {
  tools: string[];
  servers: string[];
  kinds: Kind[];
  total: number;
}

/** One intercepted call, without its texts. */
export interface CallRef {
  id: number;
  sessionId: string;
  ts: number;
  tool: string;
  server: string | null;
  outcome: Outcome;
  blobId: string | null;
  isError: boolean;
  returnedChars: number;
  returnedTokens: number | null;
  givenChars: number;
  givenTokens: number | null;
  /** The token counts were estimated from a sample of the result (a big one), not counted. */
  tokensEstimated: boolean;
  durationMs: number | null;
  /** The call this row is a part of (its structuredContent, stored apart); null for a call itself. */
  partOf: number | null;
}

export interface Lineage {
  /** The first call that stored this content. */
  producedBy: CallRef | null;
  /** Every call whose result was this content (rescued, stubbed or delivered in full). */
  calls: CallRef[];
  /** Sessions that hold it (received it in full or as a handle). */
  heldBy: { sessionId: string; firstSeenAt: number; lastSeenAt: number; generation: number }[];
  /** Fetches, recalls, expansions, label changes, pins, purge, sweep and eviction. */
  events: LedgerEvent[];
}

export interface SessionSummary {
  id: string;
  client: string | null;
  createdAt: number;
  lastSeenAt: number;
  generation: number;
  turn: number;
  calls: number;
  rescued: number;
  stubbed: number;
  blobs: number;
  /** Reads the model got an answer for (fetches, recalls, resource reads). */
  fetches: number;
  /** Calls that failed or returned an error, and reads that were refused. */
  errors: number;
  returnedTokens: number;
  givenTokens: number;
  pulledTokens: number;
  netTokens: number;
  /** Calls whose token counts are estimates (big results, sampled): the token figures are approximate when above 0. */
  estimatedTokenCounts: number;
  netChars: number;
  /** Chars passed to tools by `spill:` reference (never through the model's context). */
  refChars: number;
  /** Set for a session imported from an agent's own history (read-only; its figures are what happened, not savings). */
  imported: ImportedInfo | null;
}

/** Where an imported session came from. */
export interface ImportedInfo {
  agent: string;
  project: string | null;
  model: string | null;
  title: string | null;
  source: string | null;
}

export interface SessionList {
  total: number;
  offset: number;
  rows: SessionSummary[];
}

/** A text as far as the inspector ships it; `truncated` when cut to `text.length` of `totalChars`. */
export interface TextPreview {
  text: string;
  totalChars: number;
  truncated: boolean;
  /** Where the text came from: the ledger, the stored blob, unknown (not kept), or removed with the call's detail (store.detailTtlDays). */
  source: "ledger" | "blob" | "missing" | "pruned";
}

export type * from "./callModel";

/** Imported sessions as the replay lab reads them. */
export interface ImportedSessionRef {
  id: string;
  agent: string;
  project: string | null;
  model: string | null;
  title: string | null;
  createdAt: number;
  lastSeenAt: number;
}

export interface HistoryRequest {
  seq: number;
  ts: number;
  reset: boolean;
  textChars: number;
  textTokens: number;
}

export interface HistoryCall {
  id: number;
  ts: number;
  tool: string;
  server: string | null;
  argsJson: string | null;
  isError: boolean;
  blobId: string | null;
  returnedChars: number;
  givenChars: number;
  returnedTokens: number | null;
  givenTokens: number | null;
  /** The first request that carried its result; null when none did. */
  requestSeq: number | null;
  /** How the agent cut it: persisted (whole result read back), persisted_missing, truncated; null when given whole. */
  hostCut: string | null;
  model: string | null;
}

export interface ImportedSessionFilter {
  sessionId?: string | undefined;
  agent?: string | undefined;
  project?: string | undefined;
}
