/** Response shapes of sessions, timelines, the endpoint and settings. Pure types, like dto.ts. */
import type { CallSummary, SessionSummary, LedgerEvent } from "../../store/read/readModel";

/** A page of a session's call table. */
export interface Timeline {
  session: SessionSummary;
  calls: CallSummary[];
  /** Session events between these calls that belong to no call: turns (with the prompt), compactions, reads of ids no call returned. Order by `id` against the calls' `seq`. */
  marks: LedgerEvent[];
  /** Pass as `afterCallId` to read on; null at the end. */
  nextAfter: number | null;
}

export interface ClientInfo {
  sessionId: string;
  name: string | null;
  version: string | null;
  /** When the session was opened (the client's initialize). */
  connectedAt: number;
  lastSeenAt: number;
  /** The client is there now: a stream it listens on is open, or a request of its is being answered. */
  listening: boolean;
}

export interface UpstreamInfo {
  name: string;
  transport: "stdio" | "http" | "sse";
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
  /**
   * Where the bearer token is kept (`$SPILLWAY_HOME/token`, 0600), for snippets that read it there.
   * `canCopyToken`: whether `endpoint.token` hands the token itself to this client (the desktop
   * app's own window; never a browser session of the web inspector).
   */
  tokenFile: string | null;
  canCopyToken: boolean;
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

export type { CatalogTool, CatalogUpstream, ToolCatalog, ToolRun } from "../../mcp/handTypes";
