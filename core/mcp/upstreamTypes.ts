/** The shapes the upstream manager (upstreamManager.ts) takes and answers with. */
import type { UpstreamTransport } from "../config/config";
import type { Logger } from "../runtime";
import type { ToolCatalogView } from "../store/toolCatalog";
import type { ClientBoundRequest } from "./upstream";

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
