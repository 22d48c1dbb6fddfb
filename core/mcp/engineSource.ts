/** The engine as the MCP proxy gets it: at once (serve, the app, tests), or deferred (`spillway mcp`). */
import type { SpillwayConfig } from "../config/config";
import type { Engine } from "../engine/engineApi";
import type { Logger } from "../runtime";

/**
 * What the proxy needs before the engine has loaded: `spillway mcp` answers initialize and
 * tools/list without it, and loads it for the first request that needs it.
 */
export interface DeferredEngine {
  config: SpillwayConfig;
  logger: Logger;
  touchSession(sessionId: string, client?: string | null, tools?: boolean): void;
  /** The engine, loaded on the first call (later calls get the same one). */
  load(): Promise<Engine>;
}

/** The engine at once, or deferred. */
export type EngineSource = Engine | DeferredEngine;

/** The engine of a source, loading it if it is deferred. */
export function loadEngine(source: EngineSource): Promise<Engine> {
  return "load" in source ? source.load() : Promise.resolve(source);
}
