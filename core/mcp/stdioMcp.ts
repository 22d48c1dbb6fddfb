/** MCP over stdio (`spillway mcp`): one process is one Spillway session; stdout carries only the protocol. */
import type { Readable, Writable } from "node:stream";
import { describeError } from "../errors";
import type { Engine } from "../engine/engineApi";
import { createProxyServer } from "./proxyServer";
import { CheckedTransport } from "./requestChecks";
import { LineStdioServerTransport } from "./stdioServerTransport";
import type { UpstreamManager } from "./upstreamManager";

export interface StdioMcpOptions {
  engine: Engine;
  upstreams: UpstreamManager;
  sessionId: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(opts: StdioMcpOptions): Promise<void> {
  const stdin = (opts.stdin ?? process.stdin) as Readable;
  const server = createProxyServer({ engine: opts.engine, upstreams: opts.upstreams, sessionId: opts.sessionId });
  // Bad lines are answered by the transport and logged here; they never end the session.
  server.onerror = (err) => opts.engine.logger.warn("mcp stdio", { session: opts.sessionId, error: describeError(err) });
  // Each message waits while background work is over its memory budget (a burst of parallel calls).
  const transport = new CheckedTransport(new LineStdioServerTransport(stdin, (opts.stdout ?? process.stdout) as Writable), () => opts.engine.backpressure());
  const closed = new Promise<void>((resolve) => {
    server.onclose = ((prev) => () => {
      prev?.();
      resolve();
    })(server.onclose);
  });
  await server.connect(transport);
  await closed;
}
