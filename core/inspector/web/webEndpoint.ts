/** The endpoint as the web inspector reports it: the server this page is served by. */
import { connectContext } from "../../connect/context";
import { AGENTS } from "../../connect/agents";
import { tokenPath } from "../../http/token";
import type { RunningEndpoint } from "../../endpoint/endpoint";
import type { ConnectSnippet, EndpointStatus, UpstreamInfo } from "../api/dto";
import type { EndpointControl } from "../handlers/host";
import type { Clock } from "../../runtime";

type Running = Pick<RunningEndpoint, "url"> & Partial<Pick<RunningEndpoint, "mcpUrl" | "mcp" | "upstreams">>;

export function webEndpointControl(running: Running, home: string, clock: Clock): EndpointControl {
  const startedAt = clock.now();
  return {
    status(): EndpointStatus {
      const now = clock.now();
      const clients = (running.mcp?.sessions() ?? []).map((s) => ({
        sessionId: s.id,
        // Older MCP layers report no client name; newer ones pass the initialize clientInfo name.
        name: (s as { client?: string | null }).client ?? null,
        version: null,
        connectedAt: now - s.idleMs,
        lastSeenAt: now - s.idleMs,
      }));
      const upstreams: UpstreamInfo[] = (running.upstreams?.status() ?? []).map((u) => ({
        name: u.name,
        transport: u.transport,
        state: u.state,
        tools: u.tools,
        error: u.lastError,
      }));
      return {
        running: true,
        url: running.url,
        mcpUrl: running.mcpUrl ?? `${running.url}/mcp`,
        startedAt,
        mode: "web",
        canControl: false,
        tokenFile: tokenPath(home),
        // The page is signed in with a cookie: the token stays in its file (see EndpointControl.token).
        canCopyToken: false,
        clients,
        upstreams,
        note: "This page is served by `spillway serve`; stop it with Ctrl+C where it runs.",
      };
    },
  };
}

/** The `spillway connect` snippets, for the port this server listens on and the config it runs with. */
export function webConnectSnippets(home: string, port: number, configPath?: string): ConnectSnippet[] {
  const ctx = connectContext(home, port, configPath);
  return AGENTS.map((a) => ({ agent: a.name, title: a.title, target: "", format: "text", text: a.snippet(ctx) }));
}
