/**
 * The MCP endpoint's lifecycle as the app sees it: stopped, starting, running, stopping. Start and
 * stop requests are queued one after another, so a double click on the tray or a click during a
 * start cannot leave two servers bound or a closed one reported as running.
 */

import type { ClientInfo, UpstreamInfo } from "../../core/inspector/api/dto";
import type { ToolHost } from "../../core/inspector/handlers/host";

/** A started endpoint: where it listens, who is connected, and how to stop it. */
export interface RunningEndpoint {
  /** Base URL (hooks live under it). */
  url: string;
  /** What agents connect to. */
  mcpUrl: string;
  close(): Promise<void>;
  clients?(): ClientInfo[];
  upstreams?(): UpstreamInfo[];
  /** The upstream tool catalog and tools run by hand through this endpoint's proxy. */
  tools?: ToolHost;
}

/** Starts the endpoint in this process; the adapter over core's HTTP server (see mcpEndpoint.ts). */
export type StartEndpoint = () => Promise<RunningEndpoint>;

export type EndpointPhase = "stopped" | "starting" | "running" | "stopping";

export interface EndpointState {
  phase: EndpointPhase;
  running: boolean;
  url: string | null;
  mcpUrl: string | null;
  startedAt: number | null;
  /** The last start or stop failure, as one sentence; cleared by the next success. */
  error: string | null;
}

export interface EndpointController {
  status(): EndpointState;
  start(): Promise<EndpointState>;
  stop(): Promise<EndpointState>;
  toggle(): Promise<EndpointState>;
  /** The running endpoint, for details (clients, upstreams); null when stopped. */
  current(): RunningEndpoint | null;
  /** Called on every phase change; returns the unsubscribe. */
  onChange(listener: (status: EndpointState) => void): () => void;
}

function message(err: unknown): string {
  return err instanceof Error ? (err.message.split("\n")[0] ?? String(err)) : String(err);
}

export function createEndpointController(startEndpoint: StartEndpoint, now: () => number = Date.now): EndpointController {
  let phase: EndpointPhase = "stopped";
  let running: RunningEndpoint | null = null;
  let startedAt: number | null = null;
  let error: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const listeners = new Set<(s: EndpointState) => void>();

  const status = (): EndpointState => ({
    phase,
    running: phase === "running",
    url: running?.url ?? null,
    mcpUrl: running?.mcpUrl ?? null,
    startedAt,
    error,
  });
  const set = (next: EndpointPhase) => {
    phase = next;
    const s = status();
    for (const l of listeners) {
      try {
        l(s);
      } catch {
        // A broken listener (a destroyed tray) must not stop the endpoint's lifecycle.
      }
    }
  };
  const enqueue = (step: () => Promise<void>): Promise<EndpointState> => {
    const next = queue.then(step, step).then(status);
    queue = next.catch(() => undefined);
    return next;
  };

  const start = () =>
    enqueue(async () => {
      if (running) return;
      set("starting");
      try {
        running = await startEndpoint();
        startedAt = now();
        error = null;
        set("running");
      } catch (err) {
        running = null;
        error = `the MCP endpoint could not start: ${message(err)}`;
        set("stopped");
      }
    });

  const stop = () =>
    enqueue(async () => {
      if (!running) return;
      set("stopping");
      const r = running;
      try {
        await r.close();
        error = null;
      } catch (err) {
        error = `the MCP endpoint did not stop cleanly: ${message(err)}`;
      }
      running = null;
      startedAt = null;
      set("stopped");
    });

  return {
    status,
    start,
    stop,
    toggle: () => (running ? stop() : start()),
    current: () => running,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
