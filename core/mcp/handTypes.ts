/** The shapes of the upstream tool catalog and of a tool run by hand (pure types: the inspector's contract re-exports them). */
/** One upstream tool as its server defines it (the proxy advertises it without outputSchema). */
export interface CatalogTool {
  /** The name agents see (prefixed `<server>__` only on a clash). */
  name: string;
  upstreamName: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  annotations: Record<string, unknown> | null;
}

export interface CatalogUpstream {
  name: string;
  transport: "stdio" | "http" | "sse";
  state: string;
  error: string | null;
  tools: CatalogTool[];
}

/** Every upstream's tools, and the session tools run by hand are recorded in. */
export interface ToolCatalog {
  sessionId: string;
  upstreams: CatalogUpstream[];
}

/** A tool run by hand through the proxy: the result as an agent would get it, and where it was recorded. */
export interface ToolRun {
  sessionId: string;
  /** The recorded call (open it in the session for the raw result, the JSON-RPC and the reads). */
  callId: number | null;
  isError: boolean;
  durationMs: number;
  /** The MCP tools/call result the proxy delivered. */
  result: unknown;
}
