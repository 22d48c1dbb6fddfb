/**
 * MCP over Streamable HTTP at `/mcp`: each MCP session (its Mcp-Session-Id) gets its own proxy
 * Server and is its own Spillway session; all of them share one engine and one upstream manager.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../errors";
import type { HttpEndpoint } from "../http/server";
import type { ToolUseSessions } from "../hooks/toolUseSessions";
import type { Engine } from "../engine/engineApi";
import { createProxyServer } from "./proxyServer";
import type { UpstreamManager } from "./upstreamManager";

interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface McpHttpOptions {
  engine: Engine;
  upstreams: UpstreamManager;
  /** Sessions idle longer than this are closed (default 24 h); clients rarely say goodbye. */
  idleMs?: number;
  /** Tool-use ids the Claude Code hooks announced: an MCP session that carries one joins that Claude Code session. */
  toolUses?: ToolUseSessions;
}

export interface McpHttp {
  /** Live MCP sessions: id, client name (from initialize) and idle time, for status pages. */
  sessions(): { id: string; client: string | null; idleMs: number }[];
  close(): Promise<void>;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  res.writeHead(status, { "content-type": "application/json" }).end(body);
}

export function mountMcp(endpoint: HttpEndpoint, opts: McpHttpOptions): McpHttp {
  const live = new Map<string, McpSession>();
  const log = opts.engine.logger;
  const idleMs = opts.idleMs ?? 24 * 3_600_000;

  const end = async (id: string) => {
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    await s.transport.close().catch(() => {});
    await s.server.close().catch(() => {});
  };

  endpoint.addRoute(["POST", "GET", "DELETE"], "/mcp", async (req, res, { body }) => {
    const header = req.headers["mcp-session-id"];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const s = live.get(sid);
      if (!s) return rpcError(res, 404, -32001, `Session ${sid} not found: it ended or the server restarted; initialize a new one.`);
      s.lastSeen = Date.now();
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return rpcError(res, 400, -32000, "No Mcp-Session-Id header: start with an initialize request.");
    }
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const toolUses = opts.toolUses;
    const server = createProxyServer({
      engine: opts.engine, upstreams: opts.upstreams, sessionId: id,
      sessionFromMeta: toolUses ? (meta) => toolUses.fromMeta(meta) : undefined,
    });
    transport.onclose = () => {
      live.delete(id);
    };
    live.set(id, { transport, server, lastSeen: Date.now() });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    log.info("mcp session started", { session: id });
  });

  const reaper = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of live) if (now - s.lastSeen > idleMs) end(id).catch((err) => log.warn("closing an idle session failed", { error: describeError(err) }));
  }, Math.min(idleMs, 10 * 60_000));
  reaper.unref();

  const api: McpHttp = {
    sessions: () => [...live].map(([id, s]) => ({ id, client: s.server.getClientVersion()?.name ?? null, idleMs: Date.now() - s.lastSeen })),
    async close() {
      clearInterval(reaper);
      await Promise.all([...live.keys()].map(end));
    },
  };
  endpoint.onClose(() => api.close());
  return api;
}
