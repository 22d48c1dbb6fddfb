/**
 * The upstream tools on offer under their client-facing names, and the names already served: a
 * name a tools/list answer offered keeps reaching the same tool for the life of the process (see
 * routeTools), and the list's signature says when a rebuilt list differs from the one served.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../runtime";
import { routeTools, type RoutedTool, type ServedName } from "./toolRoutes";

export class RouteTable {
  private routes = new Map<string, RoutedTool>();
  /** Names that reach a tool without being listed under them (see routeTools). */
  private aliases = new Map<string, RoutedTool>();
  /** Every name a tools/list answer offered in this process, and its tool: it keeps reaching that tool. */
  private readonly servedNames = new Map<string, ServedName>();
  private signature = "[]";
  /** The signature of the list last answered; null until tools/list was answered once. */
  private served: string | null = null;

  constructor(
    private readonly reserved: ReadonlySet<string>,
    private readonly logger: Logger,
  ) {}

  /** Routes the servers' lists anew, keeping the names served so far. */
  rebuild(lists: { server: string; tools: readonly Tool[] }[]): void {
    ({ listed: this.routes, aliases: this.aliases } = routeTools(lists, this.reserved, this.logger, this.servedNames));
    this.signature = JSON.stringify([...this.routes.values()].map((r) => r.tool));
  }

  /** The list as a tools/list answer gives it, noted as served. */
  serve(): RoutedTool[] {
    this.served = this.signature;
    for (const r of this.routes.values())
      if (!this.servedNames.has(r.name)) this.servedNames.set(r.name, { server: r.server, upstreamName: r.upstreamName });
    return [...this.routes.values()];
  }

  /** Whether the list differs from the one last served (never before the first answer). */
  changedSinceServed(): boolean {
    return this.served !== null && this.signature !== this.served;
  }

  find(name: string): RoutedTool | undefined {
    return this.routes.get(name) ?? this.aliases.get(name);
  }

  /** The offered names that end in `__<name>`: what a client calling a bare `name` no tool has may have meant. */
  prefixedNames(name: string): string[] {
    return [...this.routes.keys()].filter((n) => n.endsWith(`__${name}`));
  }
}

/** Listeners of one kind of event: each is called in turn, and one that throws is logged, not fatal to the others. */
export class Listeners<A extends unknown[]> {
  private readonly fns = new Set<(...args: A) => void>();

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  /** Adds `fn`; returns the function that removes it. */
  add(fn: (...args: A) => void): () => void {
    this.fns.add(fn);
    return () => this.fns.delete(fn);
  }

  emit(...args: A): void {
    for (const fn of this.fns) {
      try {
        fn(...args);
      } catch (err) {
        this.logger.warn(`${this.what} listener failed`, { error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  clear(): void {
    this.fns.clear();
  }
}
