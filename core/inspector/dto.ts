/**
 * Response shapes of the inspector API. Pure types: the renderer imports this file (through
 * contract.ts) with `import type`, so nothing here may import Node, SQLite or runtime values.
 */
import type { BlobMeta, BlobState, EventType, Kind, Label, Outcome } from "../types";

export type { BlobMeta, BlobState, EventType, Kind, Label, Outcome };

/** Savings of one group (a day, tool, upstream server or session), straight from the ledger. */
export interface SavingsFigures {
  key: string;
  calls: number;
  rescued: number;
  stubbed: number;
  returnedChars: number;
  returnedTokens: number;
  givenChars: number;
  givenTokens: number;
  pulledChars: number;
  pulledTokens: number;
  netChars: number;
  netTokens: number;
  /** Calls whose token counts are still being computed (not yet in the token sums). */
  pendingTokenCounts: number;
}

export type SavingsGroup = "total" | "session" | "tool" | "server" | "day";

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
  fetches: number;
  returnedTokens: number;
  givenTokens: number;
  pulledTokens: number;
  netTokens: number;
  netChars: number;
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
  /** Where the text came from: the ledger, the stored blob, or unknown (not kept). */
  source: "ledger" | "blob" | "missing";
}

export interface TimelineCall {
  call: CallRef & { argsJson: string | null };
  /** What the tool returned. */
  raw: TextPreview;
  /** What the model was given: the handle, the stub or the result itself. */
  given: TextPreview;
  blob: { id: string; kind: Kind; label: Label; state: BlobState; chars: number } | null;
  /** Fetches, recalls and expansions of this call's blob that followed it in this session. */
  touches: LedgerEvent[];
}

export interface Timeline {
  session: SessionSummary;
  calls: TimelineCall[];
  /** Session events that belong to no listed call: compactions, turns, reads of other blobs. */
  other: LedgerEvent[];
  /** Pass as `afterCallId` to read on; null at the end. */
  nextAfter: number | null;
}

export interface ClientInfo {
  sessionId: string;
  name: string | null;
  version: string | null;
  connectedAt: number;
  lastSeenAt: number;
}

export interface UpstreamInfo {
  name: string;
  transport: "stdio" | "http";
  state: string;
  tools: number | null;
  error: string | null;
}

export interface EndpointStatus {
  running: boolean;
  /** Base URL of the server (inspector and hooks), and the MCP URL agents connect to. */
  url: string | null;
  mcpUrl: string | null;
  startedAt: number | null;
  /** "web": this page is served by the endpoint itself; "desktop": the app hosts it. */
  mode: "web" | "desktop";
  /** Whether start/stop are available to this client. */
  canControl: boolean;
  clients: ClientInfo[];
  upstreams: UpstreamInfo[];
  /** A sentence about what is not available (yet), when something is not. */
  note: string | null;
}

export interface ConnectSnippet {
  agent: string;
  title: string;
  /** Where the snippet goes: a file path or a command. */
  target: string;
  format: "json" | "toml" | "yaml" | "shell" | "text";
  text: string;
}

export interface ConfigIssue {
  path: string;
  message: string;
}

export interface ConfigView {
  path: string;
  exists: boolean;
  /** The configuration with every default filled in, as the file would validate now. */
  config: Record<string, unknown>;
  defaults: Record<string, unknown>;
  /** JSON Schema (input form) of the configuration, for building the form. */
  schema: Record<string, unknown>;
  /** true when the file differs from what the running engine loaded. */
  restartRequired: boolean;
}

export interface SweepSummary {
  expired: number;
  evicted: number;
  tombstonesDropped: number;
  usedBytes: number;
  capBytes: number;
}

export interface ExportTicket {
  /** "download": fetch `href` (same origin); "saved": the host wrote the file itself. */
  kind: "download" | "saved";
  href: string | null;
  path: string | null;
  filename: string;
}
