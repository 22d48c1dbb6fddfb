/**
 * The upstreams' prompts, resources, completion and logging, merged under one namespace as tools
 * are (toolRoutes.ts): a prompt name is prefixed `<server>__`, and a resource URI or template
 * `<server>+` (see uriPrefix), only when two servers offer it. Every list follows the upstream's
 * pagination and is answered whole.
 */
import {
  CompleteResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  McpError,
  ReadResourceResultSchema,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type LoggingLevel,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { BLOB_TEMPLATE } from "./blobResources";
import type { Upstream } from "./upstream";
import type { UpstreamManager } from "./upstreamManager";

type Live = { server: string; upstream: Upstream };
type Kind = keyof Pick<ServerCapabilities, "prompts" | "resources" | "logging" | "completions">;

/** A prompt name's prefix on a clash. */
const namePrefix = (server: string) => `${server}__`;

/**
 * A URI's prefix on a clash: the server's name joined to the URI's scheme by "+" (`pa+probe://r/2`),
 * which RFC 3986 allows in a scheme where it allows no "_" (a client that validates URIs would
 * refuse `pa__probe://r/2`). Schemes are compared without case, and must start with a letter.
 */
export function uriPrefix(server: string): string {
  const s = server.toLowerCase().replace(/_/g, "-");
  return /^[a-z]/.test(s) ? `${s}+` : `s-${s}+`;
}

/** What one name resolves to: its server and its name there. */
export interface Target {
  server: string;
  upstream: Upstream;
  name: string;
}

/** The servers offering `kind`; for a list (`bounded`), only those up within firstListWaitMs. */
async function offering(upstreams: UpstreamManager, kind: Kind, bounded = false): Promise<Live[]> {
  const live = await upstreams.connected(bounded);
  const caps = await Promise.all(live.map((l) => l.upstream.capabilities().catch(() => ({}) as ServerCapabilities)));
  return live.filter((_, i) => caps[i]?.[kind] !== undefined);
}

/** Every page of a list request. */
async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  // A server that hands back the cursor it was given would loop for ever.
  const seen = new Set<string>();
  do {
    const page = await fetchPage(cursor);
    out.push(...page.items);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor)) break;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return out;
}

function merge<T>(
  lists: { live: Live; items: T[] }[],
  key: (t: T) => string,
  rename: (t: T, k: string) => T,
  prefix: (server: string) => string,
): { items: T[]; routes: Map<string, Target> } {
  const owners = new Map<string, number>();
  for (const l of lists) for (const k of new Set(l.items.map(key))) owners.set(k, (owners.get(k) ?? 0) + 1);
  // Two server names may give one prefix (`a_b`, `a-b`): those keep their names whole.
  const prefixes = lists.map((l) => prefix(l.live.server));
  const prefixOf = (i: number) =>
    prefixes.indexOf(prefixes[i]!) === prefixes.lastIndexOf(prefixes[i]!) ? prefixes[i]! : namePrefix(lists[i]!.live.server);
  const items: T[] = [];
  const routes = new Map<string, Target>();
  for (const [i, l] of lists.entries()) {
    for (const t of l.items) {
      const k = (owners.get(key(t)) ?? 0) > 1 ? prefixOf(i) + key(t) : key(t);
      if (routes.has(k)) continue;
      routes.set(k, { server: l.live.server, upstream: l.live.upstream, name: key(t) });
      items.push(k === key(t) ? t : rename(t, k));
    }
  }
  return { items, routes };
}

/** Lists of every server offering `kind`; a server failing to list is left out rather than failing the client. */
async function collect<T>(
  upstreams: UpstreamManager,
  kind: Kind,
  list: (u: Upstream) => Promise<T[]>,
  bounded: boolean,
): Promise<{ live: Live; items: T[] }[]> {
  const live = await offering(upstreams, kind, bounded);
  const lists = await Promise.all(live.map(async (l) => ({ live: l, items: await list(l.upstream).catch(() => null) })));
  return lists.filter((l): l is { live: Live; items: T[] } => l.items !== null);
}

export async function listPrompts(upstreams: UpstreamManager, bounded = false): Promise<{ items: Prompt[]; routes: Map<string, Target> }> {
  const lists = await collect(
    upstreams,
    "prompts",
    (u) =>
      allPages(async (cursor) => {
        const r = await u.forward("prompts/list", cursor ? { cursor } : {}, ListPromptsResultSchema);
        return { items: r.prompts, nextCursor: r.nextCursor };
      }),
    bounded,
  );
  return merge(
    lists,
    (p) => p.name,
    (p, name) => ({ ...p, name }),
    namePrefix,
  );
}

export async function listResources(
  upstreams: UpstreamManager,
  bounded = false,
): Promise<{ items: Resource[]; routes: Map<string, Target> }> {
  const lists = await collect(
    upstreams,
    "resources",
    (u) =>
      allPages(async (cursor) => {
        const r = await u.forward("resources/list", cursor ? { cursor } : {}, ListResourcesResultSchema);
        return { items: r.resources, nextCursor: r.nextCursor };
      }),
    bounded,
  );
  return merge(
    lists,
    (r) => r.uri,
    (r, uri) => ({ ...r, uri }),
    uriPrefix,
  );
}

export async function listTemplates(
  upstreams: UpstreamManager,
  bounded = false,
): Promise<{ items: ResourceTemplate[]; routes: Map<string, Target> }> {
  const lists = await collect(
    upstreams,
    "resources",
    (u) =>
      allPages(async (cursor) => {
        const r = await u.forward("resources/templates/list", cursor ? { cursor } : {}, ListResourceTemplatesResultSchema);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      }),
    bounded,
  );
  return merge(
    lists,
    (t) => t.uriTemplate,
    (t, uriTemplate) => ({ ...t, uriTemplate }),
    uriPrefix,
  );
}

/** The server of a prompt name as exposed (its own name, or `<server>__name`). */
export async function promptTarget(upstreams: UpstreamManager, name: string): Promise<Target> {
  const target = (await listPrompts(upstreams)).routes.get(name);
  if (!target)
    throw new McpError(
      ErrorCode.InvalidParams,
      `There is no prompt named ${name} behind Spillway: call prompts/list for the current names.`,
    );
  return target;
}

/**
 * The server of a resource URI: a listed resource, else the server whose template matches the
 * URI (a prefixed template takes the prefixed URI), else the only server offering resources.
 */
export async function resourceTarget(upstreams: UpstreamManager, uri: string): Promise<Target | null> {
  const [listed, templates] = await Promise.all([listResources(upstreams), listTemplates(upstreams)]);
  const found = listedTarget(listed.routes, templates.routes, uri);
  if (found) return found;
  const withResources = await offering(upstreams, "resources");
  const only = withResources.length === 1 ? withResources[0] : undefined;
  return only ? { server: only.server, upstream: only.upstream, name: uri } : null;
}

type Routes = ReadonlyMap<string, Target>;

/** The server of a URI as exposed, by the listed resources, else the templates. */
function listedTarget(listed: Routes, templates: Routes, uri: string): Target | null {
  const direct = listed.get(uri);
  if (direct) return direct;
  for (const [exposedTemplate, t] of templates) {
    if (!new UriTemplate(exposedTemplate).match(uri)) continue;
    // A prefixed template takes the URI with the same prefix.
    return { ...t, name: uri.slice(exposedTemplate.length - t.name.length) };
  }
  return null;
}

/**
 * The URIs of `server`'s that a client must read under another (`pa+probe://r/2`), as a tool result
 * from it names them (a resource_link, an embedded resource): those resources/read would not take
 * to that server as they are, because another server offers them too. Lists what resources/list
 * does; nothing when no URI is given.
 */
export async function exposedUris(upstreams: UpstreamManager, server: string, uris: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // One server shares its URIs with no other: nothing is renamed, and no call waits on the listings.
  if (uris.length === 0 || upstreams.status().length < 2) return out;
  const [listed, templates] = await Promise.all([listResources(upstreams, true), listTemplates(upstreams, true)]);
  for (const uri of new Set(uris)) {
    if (listedTarget(listed.routes, templates.routes, uri)?.server === server) continue;
    const own = (routes: Routes, fits: (name: string) => boolean) =>
      [...routes].find(([k, t]) => t.server === server && k !== t.name && fits(t.name));
    const listedAs = own(listed.routes, (name) => name === uri);
    if (listedAs) out.set(uri, listedAs[0]);
    else {
      const template = own(templates.routes, (name) => new UriTemplate(name).match(uri) !== null);
      if (template) out.set(uri, template[0].slice(0, template[0].length - template[1].name.length) + uri);
    }
  }
  return out;
}

export async function getPrompt(
  upstreams: UpstreamManager,
  name: string,
  args: Record<string, string> | undefined,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  const t = await promptTarget(upstreams, name);
  return t.upstream.forward("prompts/get", { name: t.name, ...(args ? { arguments: args } : {}) }, GetPromptResultSchema, signal);
}

/** resources/read on the owning server, the content as it sent it (the proxy decides on rescue). */
export async function readResource(
  upstreams: UpstreamManager,
  uri: string,
  signal?: AbortSignal,
): Promise<{ server: string; result: ReadResourceResult }> {
  const t = await resourceTarget(upstreams, uri);
  if (!t)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}: no server behind Spillway offers it (see resources/list and resources/templates/list).`,
    );
  const result = await t.upstream.forward("resources/read", { uri: t.name }, ReadResourceResultSchema, signal);
  // The client asked for the URI it knows; the contents name that one.
  const contents = result.contents.map((c) => (c.uri === t.name && t.name !== uri ? { ...c, uri } : c));
  return { server: t.server, result: { ...result, contents } };
}

/** Subscribes or unsubscribes on the owning server; returns that server and its URI for the notifications. */
export async function subscription(upstreams: UpstreamManager, uri: string, on: boolean): Promise<Target> {
  const t = await resourceTarget(upstreams, uri);
  if (!t) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: no server behind Spillway offers it.`);
  await t.upstream.forward(on ? "resources/subscribe" : "resources/unsubscribe", { uri: t.name }, EmptyResultSchema);
  return t;
}

const NO_COMPLETION: CompleteResult = { completion: { values: [] } };

/**
 * completion/complete on the server owning the prompt or resource template. A ref no server offers
 * is refused as prompts/get refuses an unknown prompt (-32602), so a client can tell a wrong name
 * from no suggestions; a known one whose server does not complete, and Spillway's own template,
 * complete to nothing.
 */
export async function complete(
  upstreams: UpstreamManager,
  params: CompleteRequest["params"],
  signal?: AbortSignal,
): Promise<CompleteResult> {
  let target: Target;
  let ref = params.ref;
  if (ref.type === "ref/prompt") {
    target = await promptTarget(upstreams, ref.name);
    ref = { ...ref, name: target.name };
  } else {
    if (ref.uri === BLOB_TEMPLATE.uriTemplate) return NO_COMPLETION;
    const found = (await listTemplates(upstreams)).routes.get(ref.uri);
    if (!found)
      throw new McpError(
        ErrorCode.InvalidParams,
        `There is no resource template ${ref.uri} behind Spillway: call resources/templates/list for the current ones.`,
      );
    target = found;
    ref = { ...ref, uri: target.name };
  }
  const caps = await target.upstream.capabilities();
  if (!caps.completions) return NO_COMPLETION;
  return target.upstream.forward("completion/complete", { ...params, ref }, CompleteResultSchema, signal);
}

/** logging/setLevel on every server that logs; one refusing is left as it was. */
export async function setLevel(upstreams: UpstreamManager, level: LoggingLevel): Promise<void> {
  const live = await offering(upstreams, "logging");
  await Promise.all(live.map((l) => l.upstream.forward("logging/setLevel", { level }, EmptyResultSchema).catch(() => undefined)));
}
