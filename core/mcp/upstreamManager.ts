/**
 * The configured upstream servers, shared by every MCP session of a process: one connection per
 * server, their tools merged under one namespace (a name is prefixed `<server>__` only when two
 * servers, or Spillway itself, use it).
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { UpstreamConfig } from "../config/config";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import { Upstream, upstreamError, type CallOptions } from "./upstream";

/** A tool as the proxy offers it, and where it really lives. */
export interface RoutedTool {
  /** The name clients see. */
  name: string;
  server: string;
  /** The name on the upstream server. */
  upstreamName: string;
  /** The definition clients see: the upstream's, without outputSchema (see advertise()). */
  tool: Tool;
}

export interface UpstreamStatus {
  name: string;
  state: string;
  tools: number | null;
  lastError: string | null;
  pid: number | null;
}

export interface UpstreamManagerOptions {
  logger: Logger;
  timeoutMs: number;
  /** Names the proxy itself uses; an upstream tool with one of them is always prefixed. */
  reservedNames: ReadonlySet<string>;
}

/**
 * Strips outputSchema: the proxy may replace a large result by a handle, and a client must never
 * receive output that breaks a schema it was promised. The schema is still described in words.
 */
function advertise(tool: Tool, name: string): Tool {
  const { outputSchema, ...rest } = tool;
  const note = outputSchema ? "\n\n(Through Spillway, large structured results arrive as a handle to read with rescuer_fetch.)" : "";
  return { ...rest, name, description: (tool.description ?? "") + note };
}

export class UpstreamManager {
  readonly upstreams: Map<string, Upstream>;
  private routes = new Map<string, RoutedTool>();
  private listing: Promise<RoutedTool[]> | null = null;
  private fresh = false;
  private listeners = new Set<() => void>();

  constructor(configs: Record<string, UpstreamConfig>, private readonly opts: UpstreamManagerOptions) {
    this.upstreams = new Map(
      Object.entries(configs).map(([name, cfg]) => [
        name,
        new Upstream(name, cfg, { logger: opts.logger, timeoutMs: opts.timeoutMs, onToolsChanged: () => this.toolsChanged(name) }),
      ]),
    );
  }

  /** Subscribes to tool list changes of any upstream; returns the unsubscribe function. */
  onToolsChanged(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private toolsChanged(server: string): void {
    this.fresh = false;
    this.opts.logger.info("upstream tool list changed", { server });
    for (const fn of this.listeners) {
      try {
        fn();
      } catch (err) {
        this.opts.logger.warn("tool list listener failed", { error: describeError(err) });
      }
    }
  }

  /** Every upstream tool, starting servers on first use; a server that cannot start is left out (and logged). */
  async tools(): Promise<RoutedTool[]> {
    if (this.fresh) return [...this.routes.values()];
    this.listing ??= this.list().finally(() => (this.listing = null));
    return this.listing;
  }

  private async list(): Promise<RoutedTool[]> {
    const lists = await Promise.all(
      [...this.upstreams.values()].map(async (u) => {
        try {
          return { server: u.name, tools: await u.listTools(false) };
        } catch (err) {
          this.opts.logger.warn("upstream tools unavailable", { server: u.name, error: describeError(err) });
          return { server: u.name, tools: u.tools ?? [] };
        }
      }),
    );
    const owners = new Map<string, number>();
    for (const l of lists) for (const t of l.tools) owners.set(t.name, (owners.get(t.name) ?? 0) + 1);
    const routes = new Map<string, RoutedTool>();
    for (const l of lists) {
      for (const t of l.tools) {
        const clash = (owners.get(t.name) ?? 0) > 1 || this.opts.reservedNames.has(t.name);
        const name = clash ? `${l.server}__${t.name}` : t.name;
        if (routes.has(name) || this.opts.reservedNames.has(name)) {
          this.opts.logger.warn("tool name taken twice even after prefixing; the later one is hidden", { server: l.server, tool: t.name });
          continue;
        }
        routes.set(name, { name, server: l.server, upstreamName: t.name, tool: advertise(t, name) });
      }
    }
    this.routes = routes;
    this.fresh = [...this.upstreams.values()].every((u) => u.tools !== null);
    return [...routes.values()];
  }

  /** The route of an exposed tool name, listing the upstreams first if that was never done. */
  async route(name: string): Promise<RoutedTool | undefined> {
    if (!this.routes.has(name) && !this.fresh) await this.tools();
    return this.routes.get(name);
  }

  async call(route: RoutedTool, args: unknown, opts: CallOptions = {}): Promise<CallToolResult> {
    const u = this.upstreams.get(route.server);
    if (!u) throw upstreamError(`The upstream server ${route.server} is not configured any more.`);
    return u.callTool(route.upstreamName, args, opts);
  }

  status(): UpstreamStatus[] {
    return [...this.upstreams.values()].map((u) => ({ name: u.name, state: u.state, tools: u.tools?.length ?? null, lastError: u.lastError, pid: u.pid }));
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.all([...this.upstreams.values()].map((u) => u.close()));
  }
}
