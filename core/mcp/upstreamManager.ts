/**
 * The configured upstream servers, shared by every MCP session of a process: one connection per
 * server, their tools merged under one namespace (see toolRoutes.ts).
 *
 * tools/list does not wait for upstreams it has a list of: it answers from the catalog cached in
 * the store (the list each server gave last time, under the same config entry) while the servers
 * start and list in the background; when their fresh lists differ from what was served, listeners
 * hear of it (the proxy sends notifications/tools/list_changed). Only a server with no cached list
 * is waited for, and only up to `firstListWaitMs`. A call to a cached tool whose server is not up
 * yet waits for it to start.
 *
 * The same goes for the instructions each server gave in its initialize answer: kept in the catalog
 * with its tool list and passed on after Spillway's own at initialize (upstreamInstructions.ts).
 */
import type { CallToolResult, ClientCapabilities, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SpillwayConfig, UpstreamConfig } from "../config/config";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import type { ToolCatalogView } from "../store/toolCatalog";
import type { CallOptions, RelayCapabilities, Upstream } from "./upstream";
import { FETCH_TOOL, RECALL_TOOL } from "./ownTools";
import { upstreamError } from "./upstreamError";
import { asTools, type RoutedTool } from "./toolRoutes";
import { Listeners, RouteTable } from "./routeTable";
import { maskedToolList } from "./maskedTools";
import { SERVER_INSTRUCTIONS } from "./serverIdentity";
import { composeInstructions, keptInstructions } from "./upstreamInstructions";
import { SessionUpstreams } from "./sessionUpstreams";
import {
  newServerState,
  type Relay,
  type ServerState,
  type UpstreamManagerOptions,
  type UpstreamNotification,
  type UpstreamStatus,
} from "./upstreamTypes";

/** How long a call to a name no server offers waits for servers still listing their tools. */
export const ROUTE_WAIT_MS = 10_000;
export type { RoutedTool } from "./toolRoutes";
export type { Relay, UpstreamManagerOptions, UpstreamNotification, UpstreamStatus } from "./upstreamTypes";

type UpstreamModule = typeof import("./upstream");
let upstreamModule: Promise<UpstreamModule> | null = null;
/** The MCP client loads with the first upstream, not with the proxy: the first answers need none of it. */
const loadUpstreamModule = () => (upstreamModule ??= import("./upstream"));

/** Waits for `work`, but not longer than `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

export class UpstreamManager {
  private readonly servers: Map<string, ServerState>;
  private readonly table: RouteTable;
  private cacheRead: Promise<void> | null = null;
  private catalogOpen: Promise<ToolCatalogView | null> | null = null;
  private closed = false;
  private readonly listeners: Listeners<[]>;
  private readonly instructionListeners: Listeners<[]>;
  private readonly notificationListeners: Listeners<[server: string, n: UpstreamNotification]>;
  /** What the one client can answer, once it said (see UpstreamManagerOptions.oneClient). */
  private relays: RelayCapabilities | undefined;
  /** The connected client sessions, and servers that asked for their client's roots: with several clients, each session's calls go to a process of its own. */
  private readonly perSession: SessionUpstreams;

  constructor(
    configs: Record<string, UpstreamConfig>,
    private readonly opts: UpstreamManagerOptions,
  ) {
    this.table = new RouteTable(opts.reservedNames, opts.logger);
    this.listeners = new Listeners(opts.logger, "tool list");
    this.instructionListeners = new Listeners(opts.logger, "instructions");
    this.notificationListeners = new Listeners(opts.logger, "upstream notification");
    this.perSession = new SessionUpstreams({
      logger: opts.logger,
      timeoutMs: opts.timeoutMs,
      load: loadUpstreamModule,
      onNotification: (server, n) => this.notificationListeners.emit(server, n),
    });
    this.servers = new Map(
      Object.entries(configs)
        .filter(([, config]) => !config.disabled)
        .map(([name, config]) => [name, newServerState(name, config)]),
    );
  }

  /**
   * The client's declared capabilities, told before the upstreams start; kept only by a
   * one-client manager, and only for upstreams not created yet. The cached catalog stays keyed by
   * the config entry alone (serve and mcp share it): a list cached under other capabilities is
   * served until the server's own list replaces it, announced with list_changed as any change.
   */
  clientDeclared(caps: ClientCapabilities | undefined): void {
    if (this.opts.oneClient) this.relays = { sampling: !!caps?.sampling, elicitation: caps?.elicitation, roots: !!caps?.roots };
  }

  /** Subscribes to changes of the offered tool list; returns the unsubscribe function. */
  onToolsChanged(fn: () => void): () => void {
    return this.listeners.add(fn);
  }

  /**
   * Spillway's instructions followed by each upstream's, as an initialize answer gives them. Answered
   * before the upstreams start, from what each server gave last time under the same config entry
   * (the catalog), or from this process's own connection once it has one; a server never seen yet
   * contributes nothing until the next start, as its instructions are only known once it has started.
   */
  async instructions(): Promise<string> {
    await this.readCache();
    return this.instructionsNow();
  }

  /** instructions() as known now, without reading the catalog. */
  instructionsNow(): string {
    const known = [...this.servers.values()].flatMap((s) => (s.instructions ? [{ server: s.name, text: s.instructions }] : []));
    return composeInstructions(SERVER_INSTRUCTIONS, known);
  }

  /** Subscribes to changes of instructions(); returns the unsubscribe function. */
  onInstructionsChanged(fn: () => void): () => void {
    return this.instructionListeners.add(fn);
  }

  /** Subscribes to the upstreams' other notifications (logging, list_changed, resources/updated). */
  onNotification(fn: (server: string, n: UpstreamNotification) => void): () => void {
    return this.notificationListeners.add(fn);
  }

  /**
   * Every server that is up or can be started, in config order; one that cannot is left out (and
   * logged). `bounded`: a server still starting after firstListWaitMs is left out too, so a list
   * answer does not wait on a slow server (as tools/list does not).
   */
  async connected(bounded = false): Promise<{ server: string; upstream: Upstream }[]> {
    const all = await Promise.all(
      [...this.servers.values()].map(async (s) => {
        try {
          const u = await this.upstream(s);
          const up = u.connect(true).then(() => true);
          if (!bounded) await up;
          else if (!(await Promise.race([up, new Promise<false>((r) => setTimeout(() => r(false), this.opts.firstListWaitMs).unref())])))
            return null;
          return { server: s.name, upstream: u };
        } catch (err) {
          if (!this.closed) this.opts.logger.warn("upstream unavailable", { server: s.name, error: describeError(err) });
          return null;
        }
      }),
    );
    return all.filter((x): x is { server: string; upstream: Upstream } => x !== null);
  }

  /**
   * Registers a client session able to answer roots/list outside a call (the proxy relays the
   * calls' own); returns the function that removes it.
   */
  addSession(relay: Relay): () => void {
    return this.perSession.add(relay);
  }

  /**
   * A client's roots changed: its own processes hear of it, and the shared ones (one not started
   * asks when it starts); `session` names the client (its roots relay, see addSession).
   */
  async rootsChanged(session?: Relay): Promise<void> {
    if (session) await this.perSession.rootsChanged(session);
    await Promise.all(
      [...this.servers.values()].map(async (s) => {
        if (!s.created) return;
        // The shared process of a roots-scoped server answers no session's calls: only the lone client's roots may reach it.
        if (s.rootsScoped && this.perSession.size !== 1) return;
        await s.created
          .rootsChanged()
          .catch((err) => this.opts.logger.warn("could not forward roots/list_changed", { server: s.name, error: describeError(err) }));
      }),
    );
  }

  /** Starts and lists, in the background, every server not yet listed in this process. Idempotent. */
  start(): void {
    if (this.closed) return;
    for (const s of this.servers.values()) if (!s.live && !s.refreshing) void this.refresh(s);
  }

  /**
   * The offered upstream tools. Waits only for servers with no list at all (or one they said is out
   * of date), at most firstListWaitMs; a server that cannot start is left out (and logged).
   */
  async tools(): Promise<RoutedTool[]> {
    await this.readCache();
    this.start();
    const pending = [...this.servers.values()].filter((s) => s.refreshing && (s.tools === null || s.stale) && !s.waitedOut);
    if (pending.length) {
      await within(Promise.all(pending.map((s) => s.refreshing)), this.opts.firstListWaitMs);
      for (const s of pending) if (s.refreshing && (s.tools === null || s.stale)) s.waitedOut = true;
    }
    return this.table.serve();
  }

  /** Whether every configured server's tools are in the offered list (its own list or the cached one, not one it said is out of date). */
  allListed(): boolean {
    return [...this.servers.values()].every((s) => s.tools !== null && !s.stale);
  }

  /** The route of a tool name; one not offered yet waits for the servers to list, at most `waitMs` (not the request timeout). */
  async route(name: string, waitMs = ROUTE_WAIT_MS): Promise<RoutedTool | undefined> {
    await this.readCache();
    if (!this.table.find(name) && [...this.servers.values()].some((s) => !s.live)) {
      this.start();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)).unref());
      await Promise.race([Promise.all([...this.servers.values()].map((s) => s.refreshing)), waited]);
      clearTimeout(timer);
    }
    return this.table.find(name);
  }

  /** The offered names that end in `__<name>`: what a client calling a bare `name` no tool has may have meant. */
  prefixedNames(name: string): string[] {
    return this.table.prefixedNames(name);
  }

  /** Servers that have not listed their tools live yet: those still starting, and those that failed to, with why. */
  notListed(): { starting: string[]; down: { name: string; error: string }[] } {
    const waiting = [...this.servers.values()].filter((s) => !s.live);
    const failed = (s: ServerState) => s.created?.state === "down";
    return {
      starting: waiting.filter((s) => !failed(s)).map((s) => s.name),
      down: waiting.filter(failed).map((s) => ({ name: s.name, error: s.created!.lastError ?? "it failed" })),
    };
  }

  /**
   * Calls a tool on its server, starting the server first if needed; `session` (the caller's roots
   * relay, see addSession) picks the session's own process of a server that asks for roots.
   */
  async call(route: RoutedTool, args: unknown, opts: CallOptions & { relay?: Relay; session?: Relay } = {}): Promise<CallToolResult> {
    const s = this.servers.get(route.server);
    if (!s) throw upstreamError(`The upstream server ${route.server} is not configured any more.`);
    const { relay, session, ...rest } = opts;
    const own = s.rootsScoped && session && this.perSession.has(session) ? this.perSession.instance(session, s.name, s.config) : null;
    const u = await (own?.upstream ?? this.upstream(s));
    const relays = own?.relays ?? s.relays;
    if (relay) relays.push(relay);
    try {
      return await u.callTool(route.upstreamName, args, rest);
    } finally {
      if (relay) relays.splice(relays.indexOf(relay), 1);
    }
  }

  status(): UpstreamStatus[] {
    return [...this.servers.values()].map((s) => this.perSession.status(s));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.instructionListeners.clear();
    this.notificationListeners.clear();
    await this.perSession.close();
    await Promise.all(
      [...this.servers.values()].map(async (s) => (s.upstream ? (await s.upstream.catch(() => null))?.close() : undefined)),
    );
  }

  private catalog(): Promise<ToolCatalogView | null> {
    this.catalogOpen ??= (async () => (this.opts.catalog ? await this.opts.catalog() : null))().catch((err) => {
      this.opts.logger.warn("the cached tool catalog cannot be opened; upstreams are listed live", { error: describeError(err) });
      return null;
    });
    return this.catalogOpen;
  }

  private readCache(): Promise<void> {
    // No servers, no catalog: the index is not even opened for it.
    this.cacheRead ??= this.servers.size ? this.catalog().then((c) => this.useCache(c)) : Promise.resolve();
    return this.cacheRead;
  }

  private useCache(catalog: ToolCatalogView | null): void {
    if (!catalog) return;
    for (const s of this.servers.values()) {
      if (s.tools) continue;
      try {
        const cached = catalog.load(s.name, s.config);
        if (cached) {
          s.tools = asTools(cached);
          s.instructions = catalog.instructions(s.name, s.config);
        }
      } catch (err) {
        this.opts.logger.warn("cached tool list unreadable; the server is listed live", { server: s.name, error: describeError(err) });
      }
    }
    this.rebuild();
  }

  private upstream(s: ServerState): Promise<Upstream> {
    if (this.closed) return Promise.reject(upstreamError(`The upstream server ${s.name} has been shut down.`));
    s.upstream ??= loadUpstreamModule().then((m) => {
      const u = new m.Upstream(s.name, s.config, {
        logger: this.opts.logger,
        timeoutMs: this.opts.timeoutMs,
        onToolsChanged: () => this.upstreamChanged(s),
        onNotification: (n) => this.notificationListeners.emit(s.name, n),
        relays: this.relays,
        onClientRequest: this.perSession.sharedRequests(s, this.opts.oneClient === true),
      });
      s.created = u;
      // close() may have run while the module loaded.
      if (this.closed) void u.close();
      return u;
    });
    return s.upstream;
  }

  private upstreamChanged(s: ServerState): void {
    this.opts.logger.info("upstream tool list changed", { server: s.name });
    s.stale = true;
    s.changes++;
    void this.refresh(s);
  }

  private refresh(s: ServerState): Promise<void> {
    s.refreshing ??= this.listLive(s).finally(() => (s.refreshing = null));
    return s.refreshing;
  }

  private async listLive(s: ServerState): Promise<void> {
    try {
      const u = await this.upstream(s);
      // A list_changed that arrives while listing makes the answer out of date: list once more.
      while (!this.closed) {
        const seen = s.changes;
        const tools = await maskedToolList(await u.listTools(false));
        // Connected, as it just listed; should it have dropped since, the instructions known stay.
        const client = await u.connect(false).catch(() => null);
        const instructions = client ? await keptInstructions(client.getInstructions()) : s.instructions;
        if (s.changes !== seen) {
          u.tools = null;
          continue;
        }
        s.stale = false;
        this.offer(s, tools, instructions);
        break;
      }
    } catch (err) {
      if (!this.closed)
        this.opts.logger.warn("upstream tools unavailable", { server: s.name, error: describeError(err), cached: s.tools !== null });
    }
  }

  /** A server's own fresh list (and instructions): offered from now on, kept in the catalog, and announced when the offer changed. */
  private offer(s: ServerState, tools: Tool[], instructions: string | null): void {
    const before = this.instructionsNow();
    s.tools = tools;
    s.instructions = instructions;
    s.live = true;
    s.waitedOut = false;
    this.rebuild();
    void this.catalog().then((c) => {
      try {
        c?.save(s.name, s.config, tools, instructions);
      } catch (err) {
        this.opts.logger.warn("could not keep the tool list in the catalog", { server: s.name, error: describeError(err) });
      }
    });
    if (this.table.changedSinceServed()) this.listeners.emit();
    if (this.instructionsNow() !== before) this.instructionListeners.emit();
  }

  private rebuild(): void {
    this.table.rebuild([...this.servers.values()].flatMap((s) => (s.tools ? [{ server: s.name, tools: s.tools }] : [])));
  }
}

/** The manager for a config's mcpServers, with the proxy's own tool names reserved. */
export function createUpstreamManager(
  config: SpillwayConfig,
  logger: Logger,
  catalog?: UpstreamManagerOptions["catalog"],
  oneClient = false,
): UpstreamManager {
  return new UpstreamManager(config.mcpServers, {
    logger,
    timeoutMs: config.server.upstreamTimeoutMs,
    firstListWaitMs: config.server.firstListWaitMs,
    reservedNames: new Set([FETCH_TOOL, RECALL_TOOL]),
    catalog,
    oneClient,
  });
}
