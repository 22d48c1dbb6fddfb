/** MCP over stdio (`spillway mcp`): one process is one Spillway session; stdout carries only the protocol. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { EngineSource } from "./engineSource";
import { createProxyServer } from "./proxyServer";
import type { UpstreamManager } from "./upstreamManager";

export interface StdioMcpOptions {
  engine: EngineSource;
  upstreams: UpstreamManager;
  sessionId: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(opts: StdioMcpOptions): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const server = createProxyServer({ engine: opts.engine, upstreams: opts.upstreams, sessionId: opts.sessionId });
  const transport = new StdioServerTransport(stdin as NodeJS.ReadStream, (opts.stdout ?? process.stdout) as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => {
    server.onclose = ((prev) => () => {
      prev?.();
      resolve();
    })(server.onclose);
    // The SDK transport does not end on EOF; a client that goes away closes stdin.
    stdin.once("end", () => void server.close());
    stdin.once("close", () => void server.close());
  });
  await server.connect(transport);
  await closed;
}
