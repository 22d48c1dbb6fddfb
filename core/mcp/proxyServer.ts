/**
 * One MCP session of Spillway: a low-level SDK Server offering rescuer_fetch, recall_result, the
 * session's blobs as resources, and every upstream tool, with arguments expanded (spill:) and
 * results rescued and deduplicated. One instance per stdio process or per HTTP session.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { describeError } from "../errors";
import { maskJsonValue } from "../sensitivity/maskJson";
import { deliverResult, linkedUris } from "./deliver";
import { exposedUris } from "./forwarding";
import { CallRecord } from "./callRecord";
import { installRootsRelay, relayTo } from "./clientRelay";
import { loadEngine, type EngineSource } from "./engineSource";
import type { Engine } from "../engine/engineApi";
import { callOwnTool, isOwnTool, ownToolDefinitions } from "./ownTools";
import { installForwarding } from "./proxyForwarding";
import { lazySchemaValidator } from "./schemaValidator";
import { isUpstreamError } from "./upstreamError";
import type { Relay, RoutedTool, UpstreamManager } from "./upstreamManager";
import { SERVER_CAPABILITIES, SERVER_INFO, SERVER_INSTRUCTIONS } from "./serverIdentity";

export interface ProxyDeps {
  /** The engine, or a deferred one that loads with the first request needing it (stdio). */
  engine: EngineSource;
  upstreams: UpstreamManager;
  sessionId: string;
  /**
   * What initialize answers as instructions: Spillway's own followed by its upstreams'
   * (UpstreamManager.instructions(), known before the Server is made); Spillway's alone by default.
   */
  instructions?: string;
  /**
   * The host's own session for a tools/call, from its `_meta`, when the host names one (Claude Code
   * over HTTP, see hooks/toolUseSessions.ts). From then on this MCP session counts as that one.
   */
  sessionFromMeta?: (meta: unknown) => string | null;
  /** Hears that the client initialized (by its clientInfo name); the function it returns is called when the session closes. */
  onClient?: (name: string) => () => void;
  /** Hears each tools/list answer, and whether every upstream's tools were in it (`spillway mcp` keeps the last complete one). */
  onToolsListed?: (result: { tools: Tool[] }, complete: boolean) => void;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function createProxyServer(deps: ProxyDeps): Server {
  const { upstreams } = deps;
  const log = deps.engine.logger;
  const engine = () => loadEngine(deps.engine);
  let current = deps.sessionId;
  const server = new Server(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: deps.instructions ?? SERVER_INSTRUCTIONS,
    jsonSchemaValidator: lazySchemaValidator(),
  });
  let initialized = false;
  let ownTools: ReturnType<typeof ownToolDefinitions> | null = null;

  const clientName = () => {
    const client = server.getClientVersion();
    return client ? `${client.name} ${client.version}`.trim() : null;
  };
  const touch = () => {
    try {
      // This MCP session serves `current`: its model has rescuer_fetch and recall_result (hooks ask).
      deps.engine.touchSession(current, clientName(), true);
    } catch (err) {
      log.warn("could not record the session", { session: current, error: describeError(err) });
    }
  };
  let roots: { session: Relay; detach: () => void } | null = null;
  let releaseClient: (() => void) | null = null;
  server.oninitialized = () => {
    initialized = true;
    touch();
    releaseClient = deps.onClient?.(server.getClientVersion()?.name ?? "") ?? null;
    upstreams.clientDeclared(server.getClientCapabilities());
    roots = installRootsRelay(server, upstreams, log);
    // After the handshake, not before it: starting upstreams costs CPU the first answers need.
    setImmediate(() => upstreams.start());
  };
  /** A call's session: the host's when its _meta names one (kept for the calls after it), else this MCP session's. */
  const sessionFor = (meta: unknown): string => {
    const host = deps.sessionFromMeta?.(meta) ?? null;
    if (host && host !== current) {
      current = host;
      touch();
    }
    return current;
  };

  // No notification before the client has finished initializing; it lists tools then anyway.
  const unsubscribe = upstreams.onToolsChanged(() => {
    if (!initialized) return;
    server
      .sendToolListChanged()
      .catch((err) => log.warn("could not forward tools/list_changed", { session: current, error: describeError(err) }));
  });
  const forwarding = installForwarding(server, {
    upstreams,
    logger: log,
    engine: () => engine().catch(() => null),
    sessionId: () => current,
    ready: () => initialized,
  });
  const previousOnClose = server.onclose;
  server.onclose = () => {
    unsubscribe();
    forwarding.detach();
    roots?.detach();
    releaseClient?.();
    releaseClient = null;
    previousOnClose?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const routed = await upstreams.tools();
    ownTools ??= ownToolDefinitions();
    const result = { tools: [...ownTools, ...routed.map((r) => r.tool)] };
    deps.onToolsListed?.(result, upstreams.allListed());
    return result;
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args } = req.params;
    const sessionId = sessionFor(req.params._meta);
    // Timed from here: a first call also waits for the engine to load.
    const t0 = performance.now();
    const loading = engine();
    // An upstream tool still runs when the engine cannot load: its raw result, and a log line.
    loading.catch((err) =>
      log.error("the engine did not load; results pass through untouched", { session: sessionId, error: describeError(err) }),
    );
    const record = (e: Engine) => new CallRecord(e, sessionId, req, extra.requestId, t0);
    if (isOwnTool(name)) {
      const e = await loading.catch(() => null);
      if (!e) return errorResult(`${name} is unavailable: Spillway's store could not be opened (see its log).`);
      const rec = record(e);
      let eventId: number | undefined;
      const answer = callOwnTool(e, sessionId, name, args, (id) => (eventId = id));
      return rec.own(answer, eventId);
    }
    const route = await upstreams.route(name);
    if (!route) {
      const { starting, down } = upstreams.notListed();
      const meant = upstreams.prefixedNames(name);
      const text =
        `There is no tool named ${name} behind Spillway: ` +
        (meant.length ? `the servers that have one offer it as ${meant.join(", ")}.` : "call tools/list for the current names.") +
        (starting.length ? ` (Not listed yet, still starting: ${starting.join(", ")}; if the tool is theirs, try again shortly.)` : "") +
        down.map((d) => ` (Not listed: the upstream server ${d.name} is down: ${d.error}.)`).join("");
      const e = await loading.catch(() => null);
      return e ? record(e).failed({ tool: name, server: null, args: args ?? {} }, errorResult(text), text) : errorResult(text);
    }
    const e = await loading.catch(() => null);
    if (!e) {
      const raw = await passThrough(
        upstreams,
        route,
        args,
        extra,
        relayTo(server, route.server, extra, null),
        roots?.session,
        clientMeta(req.params._meta),
      );
      await forwarding.flushed();
      return raw;
    }
    const rec = record(e);
    const expanded = e.expandArguments({ sessionId, tool: name, server: route.server, args: args ?? {} });
    rec.expanded(expanded.eventIds);
    let result: CallToolResult;
    const progress = relayProgress(req.params._meta?.progressToken, extra, (t) => e.modelView(t, name));
    try {
      result = await rec.upstream(route.upstreamName, expanded.args, () =>
        upstreams.call(route, expanded.args, {
          signal: extra.signal,
          onprogress: progress.onprogress,
          relay: relayTo(server, route.server, extra, (t) => e.modelView(t, name)),
          session: roots?.session,
          meta: clientMeta(req.params._meta),
        }),
      );
      await progress.flush();
      await forwarding.flushed();
    } catch (err) {
      const text = isUpstreamError(err) ? err.message : `Calling ${name} on ${route.server} failed: ${describeError(err)}.`;
      log.warn("upstream call failed", { session: sessionId, server: route.server, tool: name, error: text });
      // The upstream's stderr tail rides in the message: it leaves through the model's exit too.
      const answer = e.modelView(expanded.note ? `${text}\n${expanded.note}` : text, name);
      return rec.failed({ tool: name, server: route.server, args: args ?? {} }, errorResult(answer), answer);
    }
    let ids = { main: null as number | null, structured: null as number | null };
    // A link to a resource another server offers too must name the URI resources/read takes for this one.
    const uris = await exposedUris(upstreams, route.server, linkedUris(result)).catch((err) => {
      log.warn("could not look up the resource URIs a result names; they pass as sent", {
        server: route.server,
        error: describeError(err),
      });
      return undefined;
    });
    const delivered = deliverResult(e, {
      uris,
      sessionId,
      tool: name,
      server: route.server,
      args: args ?? {},
      result,
      note: expanded.note,
      onRecorded: (r) => (ids = r),
    });
    return rec.delivered(delivered, result, ids);
  });

  return server;
}

/**
 * The client's `_meta` of a call as the upstream gets it (trace ids, a host's tool-use id), as with a
 * direct connection; its progressToken is not the upstream's (the proxy relays progress under its own).
 */
function clientMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const { progressToken: _token, ...rest } = meta;
  return Object.keys(rest).length ? rest : undefined;
}

/** An upstream call forwarded as is, for when the engine is not there to look at it. */
async function passThrough(
  upstreams: UpstreamManager,
  route: RoutedTool,
  args: Record<string, unknown> | undefined,
  extra: Extra,
  relay: Relay,
  session: Relay | undefined,
  meta: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  try {
    return await upstreams.call(route, args ?? {}, { signal: extra.signal, relay, session, meta });
  } catch (err) {
    return errorResult(isUpstreamError(err) ? err.message : `Calling ${route.name} on ${route.server} failed: ${describeError(err)}.`);
  }
}

/**
 * Upstream progress goes back to the client under the client's own token (the SDK gives the
 * upstream a fresh one). flush() lets the last notification out before the result, which would
 * otherwise overtake it and be dropped by the client.
 */
function relayProgress(token: string | number | undefined, extra: Extra, exit: (text: string) => string) {
  const pending = new Set<Promise<void>>();
  if (token === undefined) return { onprogress: undefined, flush: async () => {} };
  return {
    onprogress: (p: { progress: number; total?: number; message?: string }) => {
      // The message, and whatever else the upstream put beside it, is shown to the model.
      const params = { ...maskJsonValue(p, exit), progressToken: token };
      const sent = extra.sendNotification({ method: "notifications/progress", params }).catch(() => {});
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    },
    flush: async () => {
      await Promise.all(pending);
    },
  };
}
