/**
 * Upstreams of their own for each client session, for the servers that ask their client for its
 * roots, when one process serves several clients (`spillway serve`).
 *
 * A server such as server-filesystem asks for the roots once (at start, and after
 * roots/list_changed) and keeps the answer as its access scope for every later call. One process
 * shared by two agents would work in whichever's roots it heard last: agent B reading agent A's
 * project, and refused its own. So once a shared server has asked for roots, each session's calls
 * to it go to a process of that session's own, which asks that session alone; the shared process
 * still lists the tools. A session's processes close with it.
 */
import { configuredTransport, type UpstreamConfig } from "../config/config";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import { ErrorCode as McpErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Upstream } from "./upstream";
import type { ClientBoundRequest, Relay, ServerState, UpstreamNotification, UpstreamStatus } from "./upstreamTypes";

/** One process and the relays of the calls running on it, latest last. */
export interface UpstreamInstance {
  upstream: Promise<Upstream>;
  relays: Relay[];
  /** The process once made (for status, which cannot wait). */
  created: Upstream | null;
}

interface Deps {
  logger: Logger;
  timeoutMs: number;
  load: () => Promise<typeof import("./upstream")>;
  onNotification: (server: string, n: UpstreamNotification) => void;
}

export class SessionUpstreams {
  /** One relay per connected client session, for roots/list asked outside any call. */
  private readonly sessions = new Set<Relay>();
  /** Per session (keyed by its roots relay), per server name. */
  private readonly bySession = new Map<Relay, Map<string, UpstreamInstance>>();
  private closed = false;

  constructor(private readonly deps: Deps) {}

  /** Registers a connected session; returns the function that removes it and stops its processes. */
  add(session: Relay): () => void {
    this.sessions.add(session);
    return () => {
      this.sessions.delete(session);
      void this.detach(session);
    };
  }

  has(session: Relay): boolean {
    return this.sessions.has(session);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Outside a call, roots/list goes to the client when there is one (stdio always); with several
   * HTTP sessions none is picked, as one client's roots are not another's.
   */
  onlySession(server: string): Relay {
    if (this.sessions.size === 1) return [...this.sessions][0]!;
    const why = this.sessions.size === 0 ? "no client is connected to Spillway" : `${this.sessions.size} clients are connected`;
    throw new McpError(
      McpErrorCode.InvalidRequest,
      `Spillway cannot relay roots/list from ${server} outside a tool call: ${why}; ask during a call to get that caller's roots.`,
    );
  }

  /** The session's own process for `server`, started on first use. */
  instance(session: Relay, server: string, config: UpstreamConfig): UpstreamInstance {
    let mine = this.bySession.get(session);
    if (!mine) this.bySession.set(session, (mine = new Map()));
    let inst = mine.get(server);
    if (inst) return inst;
    const relays: Relay[] = [];
    const made: UpstreamInstance = { upstream: null as never, relays, created: null };
    made.upstream = this.deps.load().then((m) => {
      const u = new m.Upstream(server, config, {
        logger: this.deps.logger,
        timeoutMs: this.deps.timeoutMs,
        // The shared process lists the tools; this one only runs this session's calls.
        onToolsChanged: () => {},
        onNotification: (n) => this.deps.onNotification(server, n),
        onClientRequest: (req, signal) => {
          // Roots from this session, always; sampling and elicitation from the call that runs.
          const relay = relays.at(-1) ?? (req.method === "roots/list" ? session : undefined);
          if (!relay)
            throw new McpError(
              McpErrorCode.InvalidRequest,
              `Spillway relays ${req.method} only while one of its client's tool calls runs on ${server}.`,
            );
          return relay(req, signal);
        },
      });
      made.created = u;
      if (this.closed || !this.bySession.get(session)?.has(server)) void u.close();
      return u;
    });
    inst = made;
    mine.set(server, inst);
    this.deps.logger.info("an upstream of its own started for a client session (the server asks for its client's roots)", {
      server,
      sessions: this.bySession.size,
    });
    return inst;
  }

  /** The session's roots changed: its own processes hear of it. */
  async rootsChanged(session: Relay): Promise<void> {
    await Promise.all(
      [...(this.bySession.get(session)?.entries() ?? [])].map(async ([server, inst]) => {
        try {
          await (await inst.upstream).rootsChanged();
        } catch (err) {
          this.deps.logger.warn("could not forward roots/list_changed", { server, error: describeError(err) });
        }
      }),
    );
  }

  /** The session closed: its processes stop. */
  async detach(session: Relay): Promise<void> {
    const mine = this.bySession.get(session);
    if (!mine) return;
    this.bySession.delete(session);
    await Promise.all([...mine.values()].map(async (inst) => (await inst.upstream.catch(() => null))?.close()));
  }

  /**
   * A server's status, shown by the shared process when up; else, for a roots-scoped server, by a
   * session's own that is up (its calls run there; the shared one only lists, and restarts when it
   * next does); else by whichever exists.
   */
  status(s: ServerState): UpstreamStatus {
    const own = [...this.bySession.values()].flatMap((mine) => {
      const u = mine.get(s.name)?.created;
      return u ? [u] : [];
    });
    const u = (s.created?.state === "ready" ? s.created : own.find((x) => x.state === "ready")) ?? s.created ?? own[0] ?? null;
    return {
      name: s.name,
      state: u?.state ?? "idle",
      tools: s.tools?.length ?? null,
      lastError: u?.lastError ?? null,
      pid: u?.pid ?? null,
      transport: u?.transportKind ?? configuredTransport(s.config),
    };
  }

  /**
   * How a shared process's requests to its client are answered: sampling and elicitation by the
   * call that runs, roots/list outside a call by the lone session (see onlySession).
   */
  sharedRequests(s: ServerState, oneClient: boolean): (req: ClientBoundRequest, signal: AbortSignal) => Promise<Record<string, unknown>> {
    return (req, signal) => {
      // Asked outside any call, roots are kept as the server's scope for later calls (server-filesystem
      // does so): with several clients, a shared process must not keep one client's roots for another.
      if (req.method === "roots/list" && s.relays.length === 0 && !oneClient && !s.rootsScoped) {
        s.rootsScoped = true;
        this.deps.logger.info("upstream asks for its client's roots: each client session's calls get a process of their own", {
          server: s.name,
        });
      }
      const relay = s.relays.at(-1) ?? (req.method === "roots/list" ? this.onlySession(s.name) : undefined);
      if (!relay)
        throw new McpError(
          McpErrorCode.InvalidRequest,
          `Spillway relays ${req.method} only while one of its client's tool calls runs on ${s.name}.`,
        );
      return relay(req, signal);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.bySession.keys()].map((s) => this.detach(s)));
  }
}
