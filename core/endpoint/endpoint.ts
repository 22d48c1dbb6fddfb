/**
 * The local endpoint `spillway serve` runs (and the app's tray starts and stops): one HTTP server
 * on 127.0.0.1 with MCP at /mcp and the hooks at /hooks/*, sharing one engine and one set of upstreams.
 * Other modules add routes (the inspector's /api/* and static files) through `http.addRoute`.
 */
import { ensureToken, tokenPath } from "../http/token";
import { createHttpServer, type HttpEndpoint } from "../http/server";
import { mountHooks } from "../hooks/hookRoutes";
import { ToolUseSessions } from "../hooks/toolUseSessions";
import type { Engine } from "../engine/engineApi";
import { mountMcp, type McpHttp } from "../mcp/httpMcp";
import { createUpstreamManager, type UpstreamManager } from "../mcp/upstreamManager";
import { noteServePort } from "../store";

export interface EndpointOptions {
  engine: Engine;
  home: string;
  /** Defaults to config server.port; 0 picks a free port. */
  port?: number;
  /** Reuse an upstream manager (tests, or the app keeping upstreams across restarts). */
  upstreams?: UpstreamManager;
}

export interface RunningEndpoint {
  url: string;
  mcpUrl: string;
  port: number;
  tokenFile: string;
  http: HttpEndpoint;
  mcp: McpHttp;
  upstreams: UpstreamManager;
  close(): Promise<void>;
}

/** The upstreams of the engine's config, their tool lists cached in the engine's store. */
export function createUpstreams(engine: Engine): UpstreamManager {
  return createUpstreamManager(engine.config, engine.logger, () => engine.toolCatalog);
}

export async function startEndpoint(opts: EndpointOptions): Promise<RunningEndpoint> {
  const { engine } = opts;
  const token = ensureToken(opts.home);
  const http = createHttpServer({ port: opts.port ?? engine.config.server.port, token, logger: engine.logger });
  const ownsUpstreams = !opts.upstreams;
  const upstreams = opts.upstreams ?? createUpstreams(engine);
  const toolUses = new ToolUseSessions();
  const mcp = mountMcp(http, { engine, upstreams, toolUses });
  mountHooks(http, engine, toolUses);
  const { port, url } = await http.listen();
  noteServePort(opts.home, port);
  // Listed in the background from now on, so the first session's tools/list is answered from the
  // cached catalog or finds the servers already up.
  upstreams.start();
  return {
    url,
    mcpUrl: `${url}/mcp`,
    port,
    tokenFile: tokenPath(opts.home),
    http,
    mcp,
    upstreams,
    async close() {
      await http.close();
      if (ownsUpstreams) await upstreams.close();
    },
  };
}
