/** Response shapes of sessions, timelines, the endpoint and settings. Pure types, like dto.ts. */
import type { BlobState, Kind, Label } from "../../types";
import type { CallRef, LedgerEvent } from "./dto";

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
