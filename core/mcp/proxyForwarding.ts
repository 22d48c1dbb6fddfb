/**
 * The proxy's handlers for the upstreams' prompts, resources, completion and logging, and the
 * relay of their notifications to this MCP session. Spillway's own spillway://blob/ resources are
 * served beside the upstreams' ones.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type LoggingLevel,
  type Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../errors";
import { maskJsonValue } from "../sensitivity/maskJson";
import type { Engine } from "../engine/engineApi";
import type { Logger } from "../runtime";
import { BLOB_TEMPLATE, BLOB_URI_PREFIX, listBlobResources, readBlobResource } from "./blobResources";
import { deliverResource } from "./deliverResource";
import * as fwd from "./forwarding";
import type { UpstreamManager, UpstreamNotification } from "./upstreamManager";

export interface ForwardingContext {
  upstreams: UpstreamManager;
  logger: Logger;
  /** The engine, or null when it could not load (resources then pass through untouched). */
  engine: () => Promise<Engine | null>;
  /** This MCP session's current id. */
  sessionId: () => string;
  /** False until the client finished initializing: nothing is sent before. */
  ready: () => boolean;
}

const LEVELS: LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * A prompt, a log message or a resource listing with every string through the model's exit (what a client shows its
 * model). Without the engine it passes as sent, as a tool result then does.
 */
function maskForModel<T>(engine: Engine | null, value: T): T {
  return engine ? maskJsonValue(value, (t) => engine.modelView(t, null)) : value;
}

/** Upstream subscriptions are per process (one connection per server), so they are counted over sessions. */
const subscribers = new WeakMap<UpstreamManager, Map<string, number>>();

/** What `installForwarding` gives the proxy: the session's detach, and a wait for the notifications already forwarded. */
export interface Forwarding {
  detach(): void;
  /**
   * Resolves once the upstream notifications received so far are written to the client. A tool
   * call's result waits for it: the SDK client hands notifications to their handler a tick late,
   * so an upstream's last log message could otherwise reach the client after the call's result.
   */
  flushed(): Promise<void>;
}

/** Installs the handlers on `server`. */
export function installForwarding(server: Server, ctx: ForwardingContext): Forwarding {
  const { upstreams, logger } = ctx;
  let level: LoggingLevel | null = null;
  /** Exposed URI → the server and its own URI, for this session's subscriptions. */
  const subscribed = new Map<string, { server: string; name: string }>();
  const counts = subscribers.get(upstreams) ?? new Map<string, number>();
  subscribers.set(upstreams, counts);

  const own = (uri: string) => uri.startsWith(BLOB_URI_PREFIX);
  const ownResources = async (): Promise<Resource[]> => {
    const e = await ctx.engine();
    return e ? listBlobResources(e, ctx.sessionId()) : [];
  };

  // A prompt's description and its arguments' are shown to the model as its tools' are.
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    const [theirs, e] = await Promise.all([fwd.listPrompts(upstreams, true), ctx.engine()]);
    return { prompts: theirs.items.map((p) => ({ ...maskForModel(e, p), name: p.name })) };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const result = await fwd.getPrompt(upstreams, req.params.name, req.params.arguments, extra.signal);
    return maskForModel(await ctx.engine(), result);
  });
  // Listings are shown to the model too (a uri like file:///x?token=…, a description, _meta; the
  // title of a rescued read names its uri). A masked uri no longer resolves when the client reads
  // it: for a uri that carries a secret, that is the price of not handing the secret over.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const [mine, theirs, e] = await Promise.all([ownResources(), fwd.listResources(upstreams, true), ctx.engine()]);
    return maskForModel(e, { resources: [...mine, ...theirs.items.filter((r) => !own(r.uri))] });
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    const [theirs, e] = await Promise.all([fwd.listTemplates(upstreams, true), ctx.engine()]);
    return { resourceTemplates: [BLOB_TEMPLATE, ...maskForModel(e, theirs.items)] };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const { uri } = req.params;
    const e = await ctx.engine();
    if (own(uri)) {
      if (!e) throw new Error("Spillway's store could not be opened (see its log).");
      return readBlobResource(e, ctx.sessionId(), uri);
    }
    const { server: from, result } = await fwd.readResource(upstreams, uri, extra.signal);
    if (!e) return result;
    try {
      return deliverResource(e, { sessionId: ctx.sessionId(), server: from, uri, result });
    } catch (err) {
      // Never lose the read because rescue failed: the raw contents, and a log line.
      logger.warn("could not rescue a resource read; passed through", { server: from, uri, error: describeError(err) });
      return result;
    }
  });
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    const { uri } = req.params;
    if (subscribed.has(uri)) return {};
    const key = (t: { server: string; name: string }) => `${t.server}\n${t.name}`;
    const t = await fwd.resourceTarget(upstreams, uri);
    if (t && (counts.get(key(t)) ?? 0) > 0) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
    else {
      const done = await fwd.subscription(upstreams, uri, true);
      counts.set(key(done), 1);
    }
    subscribed.set(uri, { server: t?.server ?? "", name: t?.name ?? uri });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    const s = subscribed.get(req.params.uri);
    if (!s) return {};
    subscribed.delete(req.params.uri);
    const key = `${s.server}\n${s.name}`;
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else {
      counts.delete(key);
      await fwd.subscription(upstreams, req.params.uri, false);
    }
    return {};
  });
  // Completion values go into the prompt's arguments, which the model is shown.
  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    const [result, e] = await Promise.all([fwd.complete(upstreams, req.params, extra.signal), ctx.engine()]);
    return maskForModel(e, result);
  });
  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    level = req.params.level;
    await fwd.setLevel(upstreams, req.params.level);
    return {};
  });

  const sending = new Set<Promise<void>>();
  const send = (what: string, p: Promise<void>) => {
    const sent = p.catch((err) => logger.warn(`could not forward ${what}`, { session: ctx.sessionId(), error: describeError(err) }));
    sending.add(sent);
    void sent.finally(() => sending.delete(sent));
    return sent;
  };
  const detach = upstreams.onNotification((from: string, n: UpstreamNotification) => {
    if (!ctx.ready()) return;
    if (n.method === "notifications/message") {
      const l = n.params?.level as LoggingLevel | undefined;
      // The SDK filters only levels set through its own handler, which this one replaces.
      if (level && l && LEVELS.indexOf(l) < LEVELS.indexOf(level)) return;
      // The engine is awaited in order of arrival, so the messages keep their order.
      const masked = ctx.engine().then((e) => maskForModel(e, n.params));
      void send(
        n.method,
        masked.then((params) => server.notification({ method: n.method, params: params as never })),
      );
    } else if (n.method === "notifications/prompts/list_changed") void send(n.method, server.sendPromptListChanged());
    else if (n.method === "notifications/resources/list_changed") void send(n.method, server.sendResourceListChanged());
    else if (n.method === "notifications/resources/updated") {
      for (const [uri, s] of subscribed) {
        if (s.server !== from || s.name !== n.params?.uri) continue;
        // The uri is the one this client subscribed to; the rest (a title, _meta) is the server's.
        const masked = ctx.engine().then((e) => ({ ...maskForModel(e, n.params), uri }));
        void send(
          n.method,
          masked.then((params) => server.sendResourceUpdated(params)),
        );
      }
    }
  });
  const detachSession = () => {
    detach();
    for (const [uri, s] of subscribed) {
      const key = `${s.server}\n${s.name}`;
      const left = (counts.get(key) ?? 1) - 1;
      if (left > 0) counts.set(key, left);
      else {
        counts.delete(key);
        void fwd.subscription(upstreams, uri, false).catch(() => undefined);
      }
    }
    subscribed.clear();
  };
  return {
    detach: detachSession,
    flushed: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(sending);
    },
  };
}
