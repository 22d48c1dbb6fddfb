/**
 * Response shapes of the inspector API. Pure types: the renderer imports this file (through
 * contract.ts) with `import type`, so nothing here may import Node, SQLite or runtime values.
 */
import type { BlobMeta, BlobState, EventType, Kind, Label, Outcome, SavingsGroup, SavingsRow } from "../../types";

export type { BlobMeta, BlobState, EventType, Kind, Label, Outcome, SavingsGroup };

/** Savings of one group (a day, tool, upstream server or session), straight from the ledger. */
export type SavingsFigures = SavingsRow;

export interface StoreFigures {
  live: number;
  pinned: number;
  tombstoned: number;
  encrypted: number;
  usedBytes: number;
  capBytes: number;
  sessions: number;
  calls: number;
  lastCallAt: number | null;
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
}

export interface Overview {
  store: StoreFigures;
  total: SavingsFigures;
  byDay: SavingsFigures[];
  /** The last 48 UTC hours (oldest first), keys like `2026-03-14T09`. */
  byHour: SavingsFigures[];
  byTool: SavingsFigures[];
  byServer: SavingsFigures[];
  bySession: SavingsFigures[];
  recent: LedgerEvent[];
  generatedAt: number;
}

/** A row of the blobs table: the index metadata plus why a tombstone went. */
export interface BlobRow extends BlobMeta {
  tombstoneReason: string | null;
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

export interface BlobDetail {
  meta: BlobRow;
  /** The handle the model was given when the result was rescued; null if never rescued. */
  handle: { text: string; callId: number; sessionId: string; ts: number } | null;
  lineage: Lineage;
  /** true when the content is shown masked unless revealed (credential-labelled blobs). */
  maskable: boolean;
}

/** A window of a blob's text, by lines (0-based, end exclusive) or by chars. */
export interface ContentPage {
  id: string;
  by: "lines" | "chars";
  start: number;
  end: number;
  /** Char offset in the blob where `text` starts. */
  startChar: number;
  /** 0-based line of the blob that the first line of `text` belongs to. */
  firstLine: number;
  text: string;
  totalLines: number;
  totalChars: number;
  masked: boolean;
  /** Lines of this page cut at the per-line cap (very long lines): 0-based line and full length. */
  cutLines: { line: number; chars: number }[];
}

/** A place in a blob an answer points at; the viewer jumps there. Columns are 0-based. */
export interface Jump {
  line: number;
  startCol?: number;
  endCol?: number;
  /** A view of the place; for long lines, a slice of it starting at column `textStart`. */
  text: string;
  textStart?: number;
}

export interface FetchRun {
  /** The answer exactly as the model would get it from rescuer_fetch. */
  text: string;
  truncated: boolean;
  isError: boolean;
  jumps: Jump[];
  tookMs: number;
}

export interface GlobalHit {
  blobId: string;
  startLine: number;
  endLine: number;
  snippet: string;
  score: number;
  tool: string;
  kind: Kind;
  label: Label;
  state: BlobState;
  sessionId: string;
  chars: number;
  createdAt: number;
}

export interface GlobalSearch {
  hits: GlobalHit[];
  tookMs: number;
  /** Live blobs not (yet) in the search index: too large, or still being indexed. */
  unindexed: number;
}

export type * from "./dtoHost";
