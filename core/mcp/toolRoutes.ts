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
  /** The definition clients see: the upstream's, without outputSchema or a default `$schema` (see advertise()). */
  tool: Tool;
  /** The upstream's own definition, as it listed it (the inspector's tool catalog shows it). */
  own?: Tool;
}

/** draft-07, which most servers' schema generators (zod-to-json-schema) still name. */
const DRAFT_07 = new Set(["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"]);

/**
 * Whether a draft-07 schema means the same read as 2020-12: true unless it uses a keyword whose
 * meaning changed (tuple `items`, `additionalItems`, `dependencies`, `$ref` with siblings, `$id`).
 */
function sameIn2020(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(sameIn2020);
  if (!node || typeof node !== "object") return true;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.items) || "additionalItems" in o || "dependencies" in o || "$id" in o) return false;
  if ("$ref" in o && Object.keys(o).length > 1) return false;
  return Object.values(o).every(sameIn2020);
}

/**
 * What the model is shown of an input schema: a draft-07 `$schema` is left out where the schema
 * reads the same in MCP's default dialect, 2020-12 (every request re-sends the definitions). Any
 * other `$schema`, 2020-12 included, stays as the server wrote it (the MCP conformance suite
 * checks that an explicit 2020-12 one reaches the client).
 */
function leanInput(schema: Tool["inputSchema"]): Tool["inputSchema"] {
  const { $schema, ...rest } = schema as Tool["inputSchema"] & { $schema?: unknown };
  if (typeof $schema !== "string" || !DRAFT_07.has($schema)) return schema;
  return sameIn2020(rest) ? rest : schema;
}

/**
 * Strips outputSchema: the proxy may replace a large result by a handle, and a client must never
 * receive output that breaks a schema it was promised (the instructions say large results arrive
 * as previews; a note per tool would be re-sent with every request).
 */
function advertise(tool: Tool, name: string): Tool {
  const { outputSchema: _dropped, ...rest } = tool;
  return { ...rest, name, inputSchema: leanInput(tool.inputSchema) };
}

/**
 * Whether a tool can be called only as a task (`execution.taskSupport: "required"`): the proxy
 * calls tools plainly and does not forward tasks, so every call of it would fail. "optional"
 * tools are called plainly, as their servers allow.
 */
export function needsTask(tool: Tool): boolean {
  return tool.execution?.taskSupport === "required";
}

/** A name clients were offered, and the tool it stood for. */
export interface ServedName {
  server: string;
  upstreamName: string;
}

/** What routeTools decides: the offered tools, one name each, and the other names that still reach one. */
export interface ToolRouting {
  listed: Map<string, RoutedTool>;
  /** Names a tool answers to without being listed under them (see routeTools). */
  aliases: Map<string, RoutedTool>;
}

/**
 * Routes for the servers' tool lists, in config order: a name is prefixed `<server>__` only when
 * two servers, or Spillway itself (`reserved`), use it. Tools that need a task are left out (the
 * upstream logs which, as it lists them).
 *
 * A name clients were already offered (`served`) stays with its tool: a server that lists later
 * does not rename the tools an agent holds (its clashing tool is prefixed alone), and the name is
 * never given to another server's tool. Such a tool is listed under its first offered name and
 * answers to its other ones and its current fresh name too, unlisted, so the list holds each
 * tool once.
 */
export function routeTools(
  lists: { server: string; tools: readonly Tool[] }[],
  reserved: ReadonlySet<string>,
  logger: Logger,
  served: ReadonlyMap<string, ServedName> = new Map(),
): ToolRouting {
  const owners = new Map<string, number>();
  const callable = lists.map((l) => ({ server: l.server, tools: l.tools.filter((t) => !needsTask(t)) }));
  for (const l of callable) for (const t of l.tools) owners.set(t.name, (owners.get(t.name) ?? 0) + 1);
  const wanted: { server: string; tool: Tool; names: string[] }[] = [];
  for (const l of callable) {
    for (const t of l.tools) {
      const mine = (n: string) => !served.has(n) || (served.get(n)!.server === l.server && served.get(n)!.upstreamName === t.name);
      const before = [...served].filter(([n]) => mine(n)).map(([n]) => n);
      const clash = (owners.get(t.name) ?? 0) > 1 || reserved.has(t.name);
      const prefixed = `${l.server}__${t.name}`;
      const fresh = clash ? prefixed : t.name;
      // The fresh name may be held by a tool it was offered for earlier: then the prefixed one.
      const names = [...new Set([...before, mine(fresh) ? fresh : prefixed])].filter((n) => mine(n) && !reserved.has(n));
      wanted.push({ server: l.server, tool: t, names });
    }
  }
  const listed = new Map<string, RoutedTool>();
  const routed: { route: RoutedTool; names: string[] }[] = [];
  for (const { server, tool, names } of wanted) {
    const name = names.find((n) => !listed.has(n));
    if (name === undefined) {
      logger.warn("tool name taken twice even after prefixing; the later one is hidden", { server, tool: tool.name });
      continue;
    }
    const route = { name, server, upstreamName: tool.name, tool: advertise(tool, name), own: tool };
    listed.set(name, route);
    routed.push({ route, names });
  }
  // After every listed name is placed: an alias never takes a name another tool is listed under.
  const aliases = new Map<string, RoutedTool>();
  for (const { route, names } of routed) for (const n of names) if (!listed.has(n) && !aliases.has(n)) aliases.set(n, route);
  return { listed, aliases };
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
