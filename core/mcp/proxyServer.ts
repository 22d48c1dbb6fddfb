/**
 * One MCP session of Spillway: a low-level SDK Server offering rescuer_fetch, recall_result, the
 * session's blobs as resources, and every upstream tool, with arguments expanded (spill:) and
 * results rescued and deduplicated. One instance per stdio process or per HTTP session.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  ReadResourceRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { describeError } from "../errors";
import { BLOB_TEMPLATE, listBlobResources, readBlobResource } from "./blobResources";
import { deliverResult } from "./deliver";
import type { Engine } from "../engine/engineApi";
import { CallRecord } from "./callRecord";
import { callOwnTool, isOwnTool, ownToolDefinitions } from "./ownTools";
import { isUpstreamError } from "./upstream";
import type { UpstreamManager } from "./upstreamManager";
import { SPILLWAY_VERSION } from "./version";

export interface ProxyDeps {
  engine: Engine;
  upstreams: UpstreamManager;
  sessionId: string;
  /**
   * The host's own session for a tools/call, from its `_meta`, when the host names one (Claude Code
   * over HTTP, see hooks/toolUseSessions.ts). From then on this MCP session counts as that one.
   */
  sessionFromMeta?: (meta: unknown) => string | null;
}

const INSTRUCTIONS = [
  "Spillway sits between you and these tools. A result too large for your context arrives as a preview with an id;",
  "read the rest with rescuer_fetch (outline, search, grep, range, query…). A result you already received in full",
  "arrives as a one-line stub; recall_result brings it back. Write spill:<id> in another tool's argument to pass a",
  "stored result to that tool without reading it.",
].join(" ");

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function createProxyServer(deps: ProxyDeps): Server {
  const { engine, upstreams } = deps;
  const log = engine.logger;
  let current = deps.sessionId;
  const server = new Server(
    { name: "spillway", version: SPILLWAY_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS },
  );

  const clientName = () => {
    const client = server.getClientVersion();
    return client ? `${client.name} ${client.version}`.trim() : null;
  };
  server.oninitialized = () => engine.touchSession(current, clientName());
  /** A call's session: the host's when its _meta names one (kept for the calls after it), else this MCP session's. */
  const sessionFor = (meta: unknown): string => {
    const host = deps.sessionFromMeta?.(meta) ?? null;
    if (host && host !== current) {
      current = host;
      engine.touchSession(current, clientName());
    }
    return current;
  };

  const unsubscribe = upstreams.onToolsChanged(() => {
    server.sendToolListChanged().catch((err) => log.warn("could not forward tools/list_changed", { session: current, error: describeError(err) }));
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previousOnClose?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const routed = await upstreams.tools();
    return { tools: [...ownToolDefinitions(engine), ...routed.map((r) => r.tool)] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args } = req.params;
    const sessionId = sessionFor(req.params._meta);
    const rec = new CallRecord(engine, sessionId, req, extra.requestId);
    if (isOwnTool(name)) {
      let eventId: number | undefined;
      return rec.own(callOwnTool(engine, sessionId, name, args, (id) => (eventId = id)), eventId);
    }
    const route = await upstreams.route(name);
    if (!route) {
      const text = `There is no tool named ${name} behind Spillway: call tools/list for the current names.`;
      return rec.failed({ tool: name, server: null, args: args ?? {} }, errorResult(text), text);
    }
    const expanded = engine.expandArguments({ sessionId, tool: name, server: route.server, args: args ?? {} });
    rec.expanded(expanded.eventIds);
    let result: CallToolResult;
    const progress = relayProgress(req.params._meta?.progressToken, extra);
    try {
      result = await rec.upstream(route.upstreamName, expanded.args, () => upstreams.call(route, expanded.args, { signal: extra.signal, onprogress: progress.onprogress }));
      await progress.flush();
    } catch (err) {
      const text = isUpstreamError(err) ? err.message : `Calling ${name} on ${route.server} failed: ${describeError(err)}.`;
      log.warn("upstream call failed", { session: sessionId, server: route.server, tool: name, error: text });
      const answer = expanded.note ? `${text}\n${expanded.note}` : text;
      return rec.failed({ tool: name, server: route.server, args: args ?? {} }, errorResult(answer), answer);
    }
    let ids = { main: null as number | null, structured: null as number | null };
    const delivered = deliverResult(engine, { sessionId, tool: name, server: route.server, args: args ?? {}, result, note: expanded.note, onRecorded: (r) => (ids = r) });
    return rec.delivered(delivered, result, ids);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listBlobResources(engine, current) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [BLOB_TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readBlobResource(engine, current, req.params.uri));

  return server;
}

/**
 * Upstream progress goes back to the client under the client's own token (the SDK gives the
 * upstream a fresh one). flush() lets the last notification out before the result, which would
 * otherwise overtake it and be dropped by the client.
 */
function relayProgress(token: string | number | undefined, extra: Extra) {
  const pending = new Set<Promise<void>>();
  if (token === undefined) return { onprogress: undefined, flush: async () => {} };
  return {
    onprogress: (p: { progress: number; total?: number; message?: string }) => {
      const sent = extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, ...p } }).catch(() => {});
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    },
    flush: async () => {
      await Promise.all(pending);
    },
  };
}
