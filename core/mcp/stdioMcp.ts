/** MCP over stdio (`spillway mcp`): one process is one Spillway session; stdout carries only the protocol. */
import type { Readable, Writable } from "node:stream";
import type { Engine } from "../engine/engineApi";
import { describeError } from "../errors";
import type { StdinPrelude } from "./earlyStdio";
import type { DeferredEngine, EngineSource } from "./engineSource";
import { createProxyServer } from "./proxyServer";
import { CheckedTransport } from "./requestChecks";
import { LineStdioServerTransport } from "./stdioServerTransport";
import { readCachedAnswers, writeCachedList, type ListKey } from "./toolsListCache";
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
 * Keeps each complete tools/list answer, with the instructions known then, for the next start to
 * give before anything loads (earlyStdio.ts): written after the answer went out, and only when it
 * changed; written again when the upstreams' instructions change after it (a server started).
 */
function keepList(key: ListKey, upstreams: UpstreamManager, logger: Logger): (result: unknown, complete: boolean) => void {
  let kept: string | null | undefined;
  let last: unknown;
  const keep = () =>
    setImmediate(() => {
      try {
        kept ??= JSON.stringify(readCachedAnswers(key));
        const answers = { list: last, instructions: upstreams.instructionsNow() };
        const json = JSON.stringify(answers);
        if (json === kept) return;
        writeCachedList(key, answers.list, answers.instructions);
        kept = json;
      } catch (err) {
        logger.warn("could not keep the tools/list answer for the next start", { error: describeError(err) });
      }
    });
  upstreams.onInstructionsChanged(() => {
    if (last !== undefined) keep();
  });
  return (result, complete) => {
    if (!complete) return;
    last = result;
    keep();
  };
}

/** Serves until the client closes stdin; resolves then. */
export async function serveStdio(opts: StdioMcpOptions): Promise<void> {
  const stdin = (opts.stdin ?? process.stdin) as Readable;
  const { source, gate } = withGate(opts.engine);
  const key = opts.prelude?.listKey;
  // The early reader's, when it answers initialize: the Server's answer must be the same. Else the
  // catalog's, read now rather than with the first tools/list.
  const instructions = opts.prelude?.instructions ?? (await opts.upstreams.instructions());
  const server = createProxyServer({
    engine: source,
    upstreams: opts.upstreams,
    sessionId: opts.sessionId,
    instructions,
    onToolsListed: key ? keepList(key, opts.upstreams, opts.engine.logger) : undefined,
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
