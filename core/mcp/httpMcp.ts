/**
 * MCP over Streamable HTTP at `/mcp`: each MCP session (its Mcp-Session-Id) gets its own proxy
 * Server and is its own Spillway session; all of them share one engine and one upstream manager.
 * Sessions left without DELETE are reaped after `server.sessionIdleMinutes`, and at most
 * `server.maxSessions` are open at once. Streams are resumable: each session keeps its recent
 * events (httpEventStore.ts) for a client reconnecting with Last-Event-ID, and a request left
 * unanswered for `server.streamHoldMs` has its stream closed so the client polls (httpPolling.ts).
 * Each session's ledger (httpDelivery.ts) knows which answers its client has not received, so a
 * session waiting for its client to resume is neither reaped nor closed to make room.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../errors";
import type { HttpEndpoint } from "../http/server";
import type { ToolUseSessions } from "../hooks/toolUseSessions";
import type { Engine } from "../engine/engineApi";
import { systemClock, type Clock } from "../runtime";
import { DeliveryLedger, DeliveryTransport, watchSentEvents } from "./httpDelivery";
import { SessionEventStore } from "./httpEventStore";
import { readMcpBody } from "./httpMcpBody";
import { PollingTransport } from "./httpPolling";
import { SessionTable, type EndReason, type Hold } from "./httpSessions";
import { createProxyServer } from "./proxyServer";
import { CheckedTransport, checkParams } from "./requestChecks";
import type { UpstreamManager } from "./upstreamManager";

interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  events: SessionEventStore;
  ledger: DeliveryLedger;
}

export interface McpHttpOptions {
  engine: Engine;
  upstreams: UpstreamManager;
  /** Sessions unused for this long are closed (default config server.sessionIdleMinutes). */
  idleMs?: number;
  /** Open sessions at most (default config server.maxSessions). */
  maxSessions?: number;
  clock?: Clock;
  /** Tool-use ids the Claude Code hooks announced: an MCP session that carries one joins that Claude Code session. */
  toolUses?: ToolUseSessions;
}

export interface McpHttp {
  /**
   * Live MCP sessions, for status pages: id, client name (from initialize), idle time, POSTs being
   * answered, open streams, and answers the client has not received (`owed`; `ready` of them
   * answered, waiting for the client to collect them).
   */
  sessions(): {
    id: string;
    client: string | null;
    clientVersion: string | null;
    /** Since it was opened, and since its client last sent or listened. */
    ageMs: number;
    idleMs: number;
    /** When it was opened and when its client last sent or listened (the endpoint's clock, ms). */
    openedAt: number;
    lastSeenAt: number;
    inflight: number;
    streams: number;
    owed: number;
    ready: number;
  }[];
  /** Closes the sessions idle past the timeout now (a timer also does); resolves to how many. */
  reapIdle(): Promise<number>;
  close(): Promise<void>;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, id: RequestId | null = null): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
  res.writeHead(status, { "content-type": "application/json" }).end(body);
}

/** The sentence that refuses a new session when every open one is held (httpSessions.ts). */
function full(open: number, holds: Record<Hold, number>): string {
  const why = [
    holds.request && `${holds.request} with a request being answered`,
    holds.stream && `${holds.stream} with a client listening on an open stream`,
    holds.owed && `${holds.owed} holding answers its client has not received yet`,
  ].filter(Boolean);
  return `Spillway already has ${open} MCP sessions open, all busy, which is its limit (server.maxSessions): ${why.join(", ")}; none is closed for a new one, so try again when one ends, or raise server.maxSessions.`;
}

/** Events kept per session beside the size cap: a long stream of tiny ones (priming, progress) is bounded by count. */
const MAX_EVENTS = 4_096;

/** Last-Event-ID of a GET, when the client is resuming a stream. */
function lastEventId(req: { method?: string; headers: Record<string, string | string[] | undefined> }): string | null {
  if (req.method !== "GET") return null;
  const h = req.headers["last-event-id"];
  return (Array.isArray(h) ? h[0] : h) ?? null;
}

export function mountMcp(endpoint: HttpEndpoint, opts: McpHttpOptions): McpHttp {
  const { engine } = opts;
  const log = engine.logger;
  const clock = opts.clock ?? engine.clock ?? systemClock;
  const idleMs = opts.idleMs ?? engine.config.server.sessionIdleMinutes * 60_000;
  const maxSessions = opts.maxSessions ?? engine.config.server.maxSessions;
  const { sseRetryMs, resumeBufferKB, streamHoldMs, resumeGraceMs } = engine.config.server;
  const table = new SessionTable<McpSession>({ clock, idleMs, maxSessions, graceMs: resumeGraceMs, owes: (s) => s.ledger.size.owed > 0 });

  const end = async (id: string, reason: EndReason) => {
    const s = table.get(id);
    if (!s) return;
    table.delete(id, reason);
    log.info("mcp session closed", { session: id, reason });
    await s.value.transport.close().catch(() => {});
    await s.value.server.close().catch(() => {});
  };

  const gone = (sid: string): string => {
    const why = table.endReason(sid);
    if (why === "idle") return `Session ${sid} was closed after ${Math.round(idleMs / 60_000)} min without use; initialize a new one.`;
    if (why === "evicted")
      return `Session ${sid} was closed to make room for a newer one (server.maxSessions is ${maxSessions}); initialize a new one.`;
    return `Session ${sid} not found: it ended or the server restarted; initialize a new one.`;
  };

  endpoint.addRoute(
    ["POST", "GET", "DELETE"],
    "/mcp",
    async (req, res) => {
      let body: unknown;
      if (req.method === "POST") {
        const read = await readMcpBody(req);
        if (!read.ok) return rpcError(res, read.status, read.error.code, read.error.message, read.id);
        body = read.body;
      }
      const header = req.headers["mcp-session-id"];
      const sid = Array.isArray(header) ? header[0] : header;
      if (sid) {
        const s = table.get(sid);
        if (!s) return rpcError(res, 404, -32001, gone(sid));
        const resume = lastEventId(req);
        const known = resume === null ? "ok" : s.value.events.check(resume);
        // Refused here with a sentence: the SDK would say only "Invalid event ID format".
        if (known === "foreign") {
          log.warn("mcp resume refused: event of another session", { session: sid });
          return rpcError(
            res,
            400,
            -32000,
            `Last-Event-ID ${resume} is not an event of session ${sid}; a stream resumes only in its own session.`,
          );
        }
        if (known === "expired") {
          log.warn("mcp resume refused: events dropped", { session: sid, lastEventId: resume });
          return rpcError(
            res,
            410,
            -32000,
            `The events after ${resume} are no longer kept (each session keeps its last ${resumeBufferKB} KB, server.resumeBufferKB); what was sent after it is lost: send the request again.`,
          );
        }
        res.once("close", table.begin(sid, req.method === "GET" ? "stream" : "request"));
        watchSentEvents(res, (eventId) => s.value.events.sent(eventId));
        // Background work over its memory budget: take the request once it has caught up.
        if (req.method === "POST") await engine.backpressure();
        await s.value.transport.handleRequest(req, res, body);
        return;
      }
      if (req.method !== "POST" || !isInitializeRequest(body)) {
        const bad = req.method === "POST" ? checkParams(body as JSONRPCMessage) : null;
        if (bad) return rpcError(res, 400, bad.code, bad.message, (body as { id?: RequestId }).id ?? null);
        return rpcError(res, 400, -32000, "No Mcp-Session-Id header: start with an initialize request.");
      }
      // Before the session is made: the upstreams' instructions as known now (the catalog's, or live ones).
      const instructions = await opts.upstreams.instructions();
      const room = table.makeRoom();
      if (!room) {
        const holds = table.holds();
        log.warn("mcp session refused: every session is held", { sessions: table.size, ...holds });
        return rpcError(res, 503, -32000, full(table.size, holds));
      }
      if (room.evict) await end(room.evict, "evicted");
      const id = randomUUID();
      const ledger = new DeliveryLedger();
      const events = new SessionEventStore({ maxChars: resumeBufferKB * 1024, maxEvents: MAX_EVENTS }, ledger);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, eventStore: events, retryInterval: sseRetryMs });
      const toolUses = opts.toolUses;
      const server = createProxyServer({
        engine,
        upstreams: opts.upstreams,
        sessionId: id,
        instructions,
        sessionFromMeta: toolUses ? (meta) => toolUses.fromMeta(meta) : undefined,
        onClient: toolUses ? (name) => toolUses.clientOpened(name, () => table.connected(id)) : undefined,
      });
      server.onerror = (err) => log.warn("mcp http", { session: id, error: describeError(err) });
      const checked = new CheckedTransport(new PollingTransport(new DeliveryTransport(transport, ledger), streamHoldMs));
      checked.onclose = () => table.delete(id);
      table.add(id, { transport, server, events, ledger });
      await server.connect(checked);
      res.once("close", table.begin(id, "request"));
      watchSentEvents(res, (eventId) => events.sent(eventId));
      await transport.handleRequest(req, res, body);
      log.info("mcp session started", { session: id });
    },
    { json: false },
  );

  const reapIdle = async (): Promise<number> => {
    const ids = table.idle();
    await Promise.all(
      ids.map((id) => end(id, "idle").catch((err) => log.warn("closing an idle session failed", { error: describeError(err) }))),
    );
    return ids.length;
  };
  const reaper = setInterval(() => void reapIdle(), Math.max(1_000, Math.min(idleMs, 60_000)));
  reaper.unref();

  const api: McpHttp = {
    sessions: () =>
      table.entries().map(([id, s]) => ({
        id,
        client: s.value.server.getClientVersion()?.name ?? null,
        clientVersion: s.value.server.getClientVersion()?.version ?? null,
        ageMs: clock.now() - s.openedAt,
        idleMs: clock.now() - s.lastSeen,
        openedAt: s.openedAt,
        lastSeenAt: s.lastSeen,
        inflight: s.inflight,
        streams: s.streams,
        ...s.value.ledger.size,
      })),
    reapIdle,
    async close() {
      clearInterval(reaper);
      await Promise.all(table.entries().map(([id]) => end(id, "idle")));
    },
  };
  endpoint.onClose(() => api.close());
  return api;
}
