/**
 * An HTTP-to-stdio bridge, so the conformance suite (whose CLI drives only HTTP servers) can run
 * against `spillway mcp`: the real SDK StreamableHTTPServerTransport on loopback, one `spillway
 * mcp` child per MCP session, raw JSON-RPC relayed both ways and nothing answered by the bridge
 * itself. A message from the child that is not a response goes on the stream of the client's
 * latest request still in flight (where an HTTP server would send a call's progress, logs and
 * requests), else on the session's GET stream.
 *
 * What the bridge cannot hand to stdio is the HTTP layer itself: Host/Origin checks (the bridge
 * does its own, as any HTTP server must), SSE priming and resumption (its own event store).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { SessionEventStore } from "../../core/mcp/httpEventStore";
import { BIN, ROOT } from "../mcp/helpers/setup";

/** Children kept at once: the suite runs its scenarios one after another and rarely ends a session. */
const LIVE_SESSIONS = 4;

interface Bridged {
  http: StreamableHTTPServerTransport;
  child: StdioClientTransport;
}

const isResponse = (m: JSONRPCMessage) => isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m);

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

/** Starts the bridge in front of `spillway mcp --home <home>`; resolves to its /mcp URL. */
export async function stdioBridge(home: string): Promise<{ url: string; children: () => number; close: () => Promise<void> }> {
  const sessions = new Map<string, Bridged>();
  let spawned = 0;

  const open = async (hosts: string[]): Promise<StreamableHTTPServerTransport> => {
    const child = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--home", home],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "" },
      stderr: "ignore",
    });
    const http: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new SessionEventStore({ maxChars: 4 << 20, maxEvents: 4_096 }),
      retryInterval: 500,
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: hosts.map((h) => `http://${h}`),
      onsessioninitialized: (sid) => {
        sessions.set(sid, { http, child });
        // Oldest first (a Map keeps insertion order).
        for (const [old, s] of sessions) {
          if (sessions.size <= LIVE_SESSIONS) break;
          sessions.delete(old);
          void s.http.close();
        }
      },
    });
    /** The client's requests still unanswered, latest last. */
    const inflight: RequestId[] = [];
    http.onmessage = (m) => {
      if (isJSONRPCRequest(m)) inflight.push(m.id);
      child.send(m).catch(() => void http.close());
    };
    child.onmessage = (m) => {
      if (isResponse(m)) {
        const at = inflight.indexOf((m as { id: RequestId }).id);
        if (at >= 0) inflight.splice(at, 1);
        void http.send(m).catch(() => {});
        return;
      }
      const related = inflight.at(-1);
      void http.send(m, related === undefined ? undefined : { relatedRequestId: related }).catch(() => {});
    };
    child.onclose = () => void http.close();
    http.onclose = () => {
      if (http.sessionId) sessions.delete(http.sessionId);
      void child.close();
    };
    await child.start();
    spawned++;
    await http.start();
    return http;
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const port = (server.address() as { port: number }).port;
      const id = req.headers["mcp-session-id"] as string | undefined;
      const body = req.method === "POST" ? await readJson(req) : undefined;
      let http = id ? sessions.get(id)?.http : undefined;
      if (!http) {
        if (id || req.method !== "POST" || !isInitializeRequest(body)) {
          res
            .writeHead(id ? 404 : 400, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unknown or missing session" } }));
          return;
        }
        http = await open([`localhost:${port}`, `127.0.0.1:${port}`]);
      }
      await http.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent)
        res.writeHead(500).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: String(err) } }));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://localhost:${(server.address() as { port: number }).port}/mcp`,
    children: () => spawned,
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.http.close()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
