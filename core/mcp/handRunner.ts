/**
 * The MCP Inspector's tools, in Spillway: each upstream's tool catalog with its schemas, and an
 * upstream tool run by hand. A run goes through the real proxy (an in-process MCP client of the
 * same proxy server agents use), as the inspector's own session: its arguments are expanded, its
 * result rescued or stubbed and recorded like an agent's.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../engine/engineApi";
import { describeError, ErrorCode, SpillwayError } from "../errors";
import type { ToolCatalog, ToolRun } from "./handTypes";
import { createProxyServer } from "./proxyServer";
import type { UpstreamManager } from "./upstreamManager";
import { SPILLWAY_VERSION } from "./version";

/** The client name the inspector's session shows in the sessions list. */
export const HAND_CLIENT = "spillway-inspector";

export interface HandRunner {
  catalog(): Promise<ToolCatalog>;
  run(tool: string, args: Record<string, unknown>): Promise<ToolRun>;
  close(): Promise<void>;
}

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export function createHandRunner(engine: Engine, upstreams: UpstreamManager): HandRunner {
  // One session per process: every tool run by hand from this inspector lands in it.
  const sessionId = `inspector-${new Date(engine.clock.now()).toISOString().slice(0, 10)}-${randomBytes(4).toString("hex")}`;
  let link: Promise<{ client: Client; server: Server }> | null = null;
  const connect = () =>
    (link ??= (async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = createProxyServer({ engine, upstreams, sessionId });
      await server.connect(serverSide);
      const client = new Client({ name: HAND_CLIENT, version: SPILLWAY_VERSION });
      await client.connect(clientSide);
      return { client, server };
    })().catch((err) => {
      link = null;
      throw err;
    }));

  return {
    async catalog() {
      const routed = await upstreams.tools();
      const status = upstreams.status();
      return {
        sessionId,
        upstreams: status.map((u) => ({
          name: u.name,
          transport: u.transport,
          state: u.state,
          error: u.lastError,
          tools: routed
            .filter((r) => r.server === u.name)
            .map((r) => {
              // The upstream's own definition: the proxy advertises it without outputSchema.
              const own = r.own;
              return {
                name: r.name,
                upstreamName: r.upstreamName,
                title: own?.title ?? null,
                description: own?.description ?? "",
                inputSchema: obj(own?.inputSchema) ?? { type: "object" },
                outputSchema: obj(own?.outputSchema),
                annotations: obj(own?.annotations),
              };
            }),
        })),
      };
    },

    async run(tool, args) {
      const { client } = await connect();
      const calls: number[] = [];
      const stop = engine.onEvent((e) => {
        if (e.type === "call" && e.sessionId === sessionId) calls.push(e.callId);
      });
      const t0 = performance.now();
      try {
        const result = await client.request({ method: "tools/call", params: { name: tool, arguments: args } }, CallToolResultSchema, {
          timeout: engine.config.server.upstreamTimeoutMs + 5_000,
        });
        return {
          sessionId,
          callId: calls[0] ?? null,
          isError: result.isError === true,
          durationMs: Math.round(performance.now() - t0),
          result,
        };
      } catch (err) {
        throw new SpillwayError(ErrorCode.Upstream, `Running ${tool} by hand failed: ${describeError(err)}`);
      } finally {
        stop();
      }
    },

    async close() {
      const l = link;
      link = null;
      if (!l) return;
      const { client, server } = await l.catch(() => ({ client: null, server: null }));
      await client?.close().catch(() => {});
      await server?.close().catch(() => {});
    },
  };
}
