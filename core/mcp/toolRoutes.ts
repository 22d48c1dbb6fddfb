/** How the upstreams' tools are merged under one namespace, and what clients are shown of them. */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../runtime";

/** A tool as the proxy offers it, and where it really lives. */
export interface RoutedTool {
  /** The name clients see. */
  name: string;
  server: string;
  /** The name on the upstream server. */
  upstreamName: string;
  /** The definition clients see: the upstream's, without outputSchema (see advertise()). */
  tool: Tool;
  /** The upstream's own definition, as it listed it (the inspector's tool catalog shows it). */
  own?: Tool;
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

/**
 * Routes for the servers' tool lists, in config order: a name is prefixed `<server>__` only when
 * two servers, or Spillway itself (`reserved`), use it.
 */
export function routeTools(
  lists: { server: string; tools: readonly Tool[] }[],
  reserved: ReadonlySet<string>,
  logger: Logger,
): Map<string, RoutedTool> {
  const owners = new Map<string, number>();
  for (const l of lists) for (const t of l.tools) owners.set(t.name, (owners.get(t.name) ?? 0) + 1);
  const routes = new Map<string, RoutedTool>();
  for (const l of lists) {
    for (const t of l.tools) {
      const clash = (owners.get(t.name) ?? 0) > 1 || reserved.has(t.name);
      const name = clash ? `${l.server}__${t.name}` : t.name;
      if (routes.has(name) || reserved.has(name)) {
        logger.warn("tool name taken twice even after prefixing; the later one is hidden", { server: l.server, tool: t.name });
        continue;
      }
      routes.set(name, { name, server: l.server, upstreamName: t.name, tool: advertise(t, name), own: t });
    }
  }
  return routes;
}

/** Keeps the entries of a cached list that look like tools; the cache is ours, but a row may predate a change. */
export function asTools(list: readonly unknown[]): Tool[] {
  return list.filter(
    (t): t is Tool =>
      !!t &&
      typeof t === "object" &&
      typeof (t as { name?: unknown }).name === "string" &&
      typeof (t as { inputSchema?: unknown }).inputSchema === "object",
  );
}
