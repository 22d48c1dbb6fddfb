/** MCP over stdio (`spillway mcp`): one process is one Spillway session; stdout carries only the protocol. */
import type { Readable, Writable } from "node:stream";
import type { Engine } from "../engine/engineApi";
import { describeError } from "../errors";
import type { StdinPrelude } from "./earlyStdio";
import type { DeferredEngine, EngineSource } from "./engineSource";
import { createProxyServer } from "./proxyServer";
import { CheckedTransport } from "./requestChecks";
import { LineStdioServerTransport } from "./stdioServerTransport";
import { readCachedList, writeCachedList, type ListKey } from "./toolsListCache";
import type { Logger } from "../runtime";
import type { UpstreamManager } from "./upstreamManager";

export interface StdioMcpOptions {
  engine: EngineSource;
  upstreams: UpstreamManager;
  sessionId: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** The early reader that may have answered initialize and tools/list already (`spillway mcp`): stdin is taken over from it. */
  prelude?: StdinPrelude;
}

/**
 * The source as the proxy gets it, and the backpressure gate: a deferred engine is not loaded for
 * the gate's sake (that would undo answering initialize early); the gate applies once it is loaded.
 */
function withGate(src: EngineSource): { source: EngineSource; gate: () => Promise<void> } {
  if (!("load" in src)) return { source: src, gate: () => src.backpressure() };
  let loaded: Engine | null = null;
  const source: DeferredEngine = Object.assign(Object.create(src) as DeferredEngine, {
    load: () => src.load().then((e) => (loaded = e)),
  });
  return { source, gate: () => loaded?.backpressure() ?? Promise.resolve() };
}

/**
 * Keeps each complete tools/list answer for the next start to give before anything loads
 * (earlyStdio.ts): written after the answer went out, and only when it changed.
 */
function keepList(key: ListKey, logger: Logger): (result: unknown, complete: boolean) => void {
  let kept: string | null | undefined;
  return (result, complete) => {
    if (!complete) return;
    setImmediate(() => {
      try {
        kept ??= JSON.stringify(readCachedList(key));
        const json = JSON.stringify(result);
        if (json === kept) return;
        writeCachedList(key, result);
        kept = json;
      } catch (err) {
        logger.warn("could not keep the tools/list answer for the next start", { error: describeError(err) });
      }
    });
  };
}

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(opts: StdioMcpOptions): Promise<void> {
  const stdin = (opts.stdin ?? process.stdin) as Readable;
  const { source, gate } = withGate(opts.engine);
  const key = opts.prelude?.listKey;
  const server = createProxyServer({
    engine: source,
    upstreams: opts.upstreams,
    sessionId: opts.sessionId,
    onToolsListed: key ? keepList(key, opts.engine.logger) : undefined,
  });
  // Bad lines are answered by the transport and logged here; they never end the session.
  server.onerror = (err) => opts.engine.logger.warn("mcp stdio", { session: opts.sessionId, error: describeError(err) });
  // Each message waits while background work is over its memory budget (a burst of parallel calls).
  const transport = new CheckedTransport(
    new LineStdioServerTransport(stdin, (opts.stdout ?? process.stdout) as Writable, { prelude: opts.prelude }),
    gate,
  );
  const closed = new Promise<void>((resolve) => {
    server.onclose = ((prev) => () => {
      prev?.();
      resolve();
    })(server.onclose);
  });
  await server.connect(transport);
  await closed;
}
