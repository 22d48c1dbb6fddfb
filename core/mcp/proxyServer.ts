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
import { callOwnTool, isOwnTool, ownToolDefinitions } from "./ownTools";
import { isUpstreamError } from "./upstream";
import type { UpstreamManager } from "./upstreamManager";
import { SPILLWAY_VERSION } from "./version";

export interface ProxyDeps {
  engine: Engine;
  upstreams: UpstreamManager;
  sessionId: string;
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
  const { engine, upstreams, sessionId } = deps;
  const log = engine.logger;
  const server = new Server(
    { name: "spillway", version: SPILLWAY_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS },
  );

  server.oninitialized = () => {
    const client = server.getClientVersion();
    engine.touchSession(sessionId, client ? `${client.name} ${client.version}`.trim() : null);
  };

  const unsubscribe = upstreams.onToolsChanged(() => {
    server.sendToolListChanged().catch((err) => log.warn("could not forward tools/list_changed", { session: sessionId, error: describeError(err) }));
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
    if (isOwnTool(name)) return callOwnTool(engine, sessionId, name, args);
    const route = await upstreams.route(name);
    if (!route) return errorResult(`There is no tool named ${name} behind Spillway: call tools/list for the current names.`);
    const expanded = engine.expandArguments({ sessionId, tool: name, server: route.server, args: args ?? {} });
    let result: CallToolResult;
    const progress = relayProgress(req.params._meta?.progressToken, extra);
    try {
      result = await upstreams.call(route, expanded.args, { signal: extra.signal, onprogress: progress.onprogress });
      await progress.flush();
    } catch (err) {
      const text = isUpstreamError(err) ? err.message : `Calling ${name} on ${route.server} failed: ${describeError(err)}.`;
      log.warn("upstream call failed", { session: sessionId, server: route.server, tool: name, error: text });
      // The upstream's stderr tail rides in the message: it leaves through the model's exit too.
      return errorResult(engine.modelView(expanded.note ? `${text}\n${expanded.note}` : text, name));
    }
    return deliverResult(engine, { sessionId, tool: name, server: route.server, args: args ?? {}, result, note: expanded.note });
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listBlobResources(engine, sessionId) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [BLOB_TEMPLATE] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => readBlobResource(engine, sessionId, req.params.uri));

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
