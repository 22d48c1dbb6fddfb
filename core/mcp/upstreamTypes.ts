/** The shapes an upstream (upstream.ts) and the upstream manager (upstreamManager.ts) take and answer with. */
import type { ClientCapabilities, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { UpstreamConfig, UpstreamTransport } from "../config/config";
import type { Clock, Logger } from "../runtime";
import type { ToolCatalogView } from "../store/toolCatalog";
import type { Upstream } from "./upstream";

/** A notification an upstream sent that the proxy may pass on. */
export interface UpstreamNotification {
  method: string;
  params?: Record<string, unknown>;
}

export interface UpstreamStatus {
  name: string;
  state: string;
  /** Tools offered for this server (its own list, else the cached one); null when none is known. */
  tools: number | null;
  lastError: string | null;
  pid: number | null;
  /** How it is reached: what the entry names, or for an HTTP entry without a type, what the server answered on. */
  transport: UpstreamTransport;
}

export interface UpstreamManagerOptions {
  logger: Logger;
  timeoutMs: number;
  /** Names the proxy itself uses; an upstream tool with one of them is always prefixed. */
  reservedNames: ReadonlySet<string>;
  /** How long tools/list waits for a server with no cached list (config server.firstListWaitMs). */
  firstListWaitMs: number;
  /** The cached catalog, opened on first use; without one every start waits for its upstreams. */
  catalog?: () => ToolCatalogView | null | Promise<ToolCatalogView | null>;
  /**
   * The manager serves one client only (`spillway mcp`): upstreams declare the sampling,
   * elicitation and roots that client declared, so they offer no tool it could not use. Shared
   * managers (serve) declare all three, for whichever client calls.
   */
  oneClient?: boolean;
}

/** Answers a server's request to its client (sampling, elicitation) on behalf of one running call. */
export type Relay = (req: ClientBoundRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;

export interface UpstreamOptions {
  logger: Logger;
  /** Per-request timeout (config server.upstreamTimeoutMs). */
  timeoutMs: number;
  /** Called when the server says its tool list changed, or when it restarts. */
  onToolsChanged: () => void;
  /** Drives the restart backoff (the system clock unless a test passes one). */
  clock?: Clock;
  /** Every other notification of the server (logging, prompts/resources list_changed, resources/updated). */
  onNotification?: (n: { method: string; params?: Record<string, unknown> }) => void;
  /** The server's sampling, elicitation and roots requests, for the proxy to relay to its client. */
  onClientRequest?: (req: ClientBoundRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** Which of those requests to declare; all unless the proxy's one client said which it can answer. */
  relays?: RelayCapabilities;
}

/** The client requests an upstream may send through the proxy. */
export interface RelayCapabilities {
  sampling: boolean;
  /** The client's elicitation capability as it declared it (its modes: form, url); false or undefined for none. */
  elicitation: ClientCapabilities["elicitation"] | boolean;
  roots: boolean;
}

/** A request an upstream sends to its client. */
export interface ClientBoundRequest {
  method: "sampling/createMessage" | "elicitation/create" | "roots/list";
  params: Record<string, unknown>;
}

export interface CallOptions {
  signal?: AbortSignal;
  onprogress?: (p: Progress) => void;
  /** The client's `_meta` for the call (trace ids, a host's tool-use id), passed on as a direct connection would; its progressToken is the proxy's own. */
  meta?: Record<string, unknown>;
}

/** What the upstream manager keeps for each configured server. */
export interface ServerState {
  name: string;
  config: UpstreamConfig;
  upstream: Promise<Upstream> | null;
  /** Created upstream, for status() (which cannot wait). */
  created: Upstream | null;
  /** The tools offered for this server: its own list in this process, else the cached one. */
  tools: Tool[] | null;
  /**
   * The instructions of its initialize answer (masked and cut, upstreamInstructions.ts), kept with
   * `tools` and from the same source: this process's connection, else the catalog; null: none known.
   */
  instructions: string | null;
  /** `tools` came from the server in this process. */
  live: boolean;
  /** The server said its list changed; the offered list is out of date until listed again. */
  stale: boolean;
  /** Counts list_changed notifications, so a list answered across one is taken again. */
  changes: number;
  refreshing: Promise<void> | null;
  /** A tools/list waited for it in vain (it hangs at start): later ones do not, until it has listed. */
  waitedOut: boolean;
  /** Relays of the calls running on this server, latest last: its sampling/elicitation requests go to the latest. */
  relays: Relay[];
  /** It asked for its client's roots while serving several clients: each session's calls go to a process of its own (sessionUpstreams.ts). */
  rootsScoped: boolean;
}

/** A configured server's state before anything ran. */
export function newServerState(name: string, config: UpstreamConfig): ServerState {
  return {
    name,
    config,
    upstream: null,
    created: null,
    tools: null,
    instructions: null,
    live: false,
    stale: false,
    changes: 0,
    refreshing: null,
    waitedOut: false,
    relays: [],
    rootsScoped: false,
  };
}
