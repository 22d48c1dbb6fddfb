/**
 * The thin adapter between the app and core's endpoint (core/endpoint/endpoint.ts, the same server
 * `spillway serve` runs): starts it in this process on the engine the app already hosts, and
 * reports its clients and upstreams in the inspector contract's shapes.
 */
import type { Engine } from "../../core/engine/engineApi";
import { ensureToken, tokenPath } from "../../core/http/token";
import type { EndpointStatus, UpstreamInfo } from "../../core/inspector/api/dto";
import type { EndpointControl } from "../../core/inspector/handlers/host";
import { startEndpoint } from "../../core/endpoint/endpoint";
import { mcpClients } from "../../core/inspector/web";
import { createHandRunner } from "../../core/mcp/handRunner";
import type { EndpointController, StartEndpoint } from "./endpointController";

export interface InProcessEndpointOptions {
  engine: Engine;
  home: string;
  /** Defaults to the config's server.port; 0 picks a free port (tests). */
  port?: number;
}

/** A StartEndpoint that runs core's endpoint in this process. */
export function inProcessEndpoint(opts: InProcessEndpointOptions): StartEndpoint {
  return async () => {
    const port = opts.port ?? opts.engine.config.server.port;
    let r;
    try {
      r = await startEndpoint({ engine: opts.engine, home: opts.home, port });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new Error(`port ${port} is already in use (is \`spillway serve\` running?); stop it or change server.port`, { cause: err });
      }
      throw err;
    }
    const tools = createHandRunner(opts.engine, r.upstreams);
    return {
      url: r.url,
      mcpUrl: r.mcpUrl,
      tools,
      close: async () => {
        await tools.close();
        await r.close();
      },
      clients: () => {
        return mcpClients(r.mcp);
      },
      upstreams: (): UpstreamInfo[] =>
        r.upstreams.status().map((u) => ({
          name: u.name,
          transport: u.transport,
          state: u.state,
          tools: u.tools,
          error: u.lastError,
        })),
    };
  };
}

/** The inspector's view of the app's endpoint: the app can start and stop it. */
export function desktopEndpointControl(controller: EndpointController, home: string): EndpointControl {
  const status = (): EndpointStatus => {
    const s = controller.status();
    const r = controller.current();
    return {
      running: s.running,
      url: s.url,
      mcpUrl: s.mcpUrl,
      startedAt: s.startedAt,
      mode: "desktop",
      canControl: true,
      tokenFile: tokenPath(home),
      canCopyToken: true,
      clients: r?.clients?.() ?? [],
      upstreams: r?.upstreams?.() ?? [],
      note: s.error ?? (s.phase === "starting" ? "The endpoint is starting." : s.phase === "stopping" ? "The endpoint is stopping." : null),
    };
  };
  return {
    status,
    start: async () => {
      await controller.start();
      return status();
    },
    stop: async () => {
      await controller.stop();
      return status();
    },
    token: () => ensureToken(home),
    onChange: (listener) => controller.onChange(() => listener(status())),
  };
}
