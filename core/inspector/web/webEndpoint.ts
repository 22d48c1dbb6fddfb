/** The endpoint as the web inspector reports it: the server this page is served by. */
import { connectContext } from "../../connect/context";
import { AGENTS } from "../../connect/agents";
import { tokenPath } from "../../http/token";
import type { RunningEndpoint } from "../../endpoint/endpoint";
import type { ClientInfo, ConnectSnippet, EndpointStatus, UpstreamInfo } from "../api/dto";
import type { McpHttp } from "../../mcp/httpMcp";
import type { EndpointControl } from "../handlers/host";
import type { Clock } from "../../runtime";

type Running = Pick<RunningEndpoint, "url"> & Partial<Pick<RunningEndpoint, "mcpUrl" | "mcp" | "upstreams">>;

export function webEndpointControl(running: Running, home: string, clock: Clock): EndpointControl {
  const startedAt = clock.now();
  return {
    status(): EndpointStatus {
      const clients = running.mcp ? mcpClients(running.mcp) : [];
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

/**
 * The MCP sessions open on the endpoint, as the Endpoint page lists them. A session whose client
 * went away without a DELETE stays open until it has been idle for server.sessionIdleMinutes:
 * `listening` tells those from a client that is there now.
 */
export function mcpClients(mcp: Pick<McpHttp, "sessions">): ClientInfo[] {
  return mcp.sessions().map((s) => ({
    sessionId: s.id,
    name: s.client,
    version: s.clientVersion,
    // The times as kept, not the current time minus an age read a moment apart (off by a millisecond).
    connectedAt: s.openedAt,
    lastSeenAt: s.lastSeenAt,
    listening: s.streams > 0 || s.inflight > 0,
  }));
}

/** The `spillway connect` snippets, for the port this server listens on and the config it runs with. */
export function webConnectSnippets(home: string, port: number, configPath?: string): ConnectSnippet[] {
  const ctx = connectContext(home, port, configPath);
  return AGENTS.map((a) => ({ agent: a.name, title: a.title, target: "", format: "text", text: a.snippet(ctx) }));
}
