/** The part of the engine the endpoints use: a narrow view, so tests and benches can pass a real engine or a small fake. */
import type { SpillwayConfig } from "../config/config";
import type { Engine } from "../engine/engine";
import type { Logger } from "../runtime";

export type ProxyEngine = Pick<
  Engine,
  "config" | "logger" | "store" | "sessions" | "touchSession" | "transformToolResult" | "expandArguments" | "fetch" | "recall" | "readBlob" | "compaction" | "turn" | "toolCatalog"
>;

/**
 * What the proxy needs before the engine has loaded: `spillway mcp` answers initialize and
 * tools/list without it, and loads it for the first request that needs it.
 */
export interface DeferredEngine {
  config: SpillwayConfig;
  logger: Logger;
  touchSession(sessionId: string, client?: string | null): void;
  /** The engine, loaded on the first call (later calls get the same one). */
  load(): Promise<ProxyEngine>;
}

/** The engine at once, or deferred. */
export type EngineSource = ProxyEngine | DeferredEngine;

/** The engine of a source, loading it if it is deferred. */
export function loadEngine(source: EngineSource): Promise<ProxyEngine> {
  return "load" in source ? source.load() : Promise.resolve(source);
}
