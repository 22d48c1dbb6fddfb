/**
 * Requests an upstream sends to its client (sampling, elicitation, roots), relayed to the client
 * connected to Spillway: during a call on that call's stream, and roots/list outside a call to
 * the session (see UpstreamManager.addSession). A client that did not declare the capability
 * gets no request; the upstream gets a sentence saying so. The client's
 * notifications/roots/list_changed goes on to every connected upstream.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode as McpErrorCode,
  ListRootsResultSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type ClientCapabilities,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import { maskJsonValue } from "../sensitivity/maskJson";
import type { ClientBoundRequest } from "./upstream";
import type { Relay, UpstreamManager } from "./upstreamManager";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const CAPABILITY: Record<ClientBoundRequest["method"], keyof ClientCapabilities> = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};

const SCHEMA = {
  "sampling/createMessage": CreateMessageResultSchema,
  "elicitation/create": ElicitResultSchema,
  "roots/list": ListRootsResultSchema,
} as const;

function refuseUndeclared(server: Server, upstream: string, req: ClientBoundRequest): void {
  const cap = CAPABILITY[req.method];
  const declared = server.getClientCapabilities();
  if (!declared?.[cap])
    throw new McpError(
      McpErrorCode.InvalidRequest,
      `The client connected to Spillway did not declare ${cap}, so ${upstream} cannot ask it for ${req.method}.`,
    );
  // serve declares both elicitation modes to its upstreams, for whichever client calls.
  if (req.method === "elicitation/create" && req.params.mode === "url" && (declared.elicitation as { url?: object }).url === undefined)
    throw new McpError(
      McpErrorCode.InvalidRequest,
      `The client connected to Spillway did not declare URL-mode elicitation, so ${upstream} cannot ask it to open a URL.`,
    );
}

/**
 * Strings that name something rather than say it (the ids a client answers or reports progress
 * with, a content block's base64): they go to the client as sent, whatever they look like.
 */
const KEPT: Record<string, readonly string[]> = {
  image: ["data", "mimeType"],
  audio: ["data", "mimeType"],
  tool_use: ["id"],
  tool_result: ["toolUseId"],
};
const KEPT_ANYWHERE = ["progressToken", "taskId", "elicitationId"];

/**
 * A relayed request's params with every other string through the model's exit: a sampling
 * request's messages and systemPrompt go to the client's model, an elicitation's message and
 * schema to its user and often its model. The same object when nothing changed.
 */
function maskParams(value: unknown, exit: (text: string) => string, depth = 0): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const m = maskParams(v, exit, depth + 1);
      if (m !== v) (out ??= value.slice())[i] = m;
    });
    return out ?? value;
  }
  if (value === null || typeof value !== "object") return maskJsonValue(value, exit);
  const obj = value as Record<string, unknown>;
  const kept = typeof obj.type === "string" ? (KEPT[obj.type] ?? []) : [];
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== "string" && (v === null || typeof v !== "object")) continue;
    if (typeof v === "string" && (kept.includes(k) || KEPT_ANYWHERE.includes(k))) continue;
    // A string is masked beside its key: a value under a secret-shaped name is judged with it.
    const m =
      typeof v === "string" ? maskJsonValue({ [k]: v }, exit)[k] : depth > 100 ? maskJsonValue(v, exit) : maskParams(v, exit, depth + 1);
    if (m !== v) (out ??= { ...obj })[k] = m;
  }
  return out ?? value;
}

/**
 * The relay for one call running on `upstream`: its requests go to the client on that call's
 * stream, their params through `exit` (the model's), or as sent when there is no engine to mask
 * them (as that call's result then is).
 */
export function relayTo(server: Server, upstream: string, extra: Extra, exit: ((text: string) => string) | null): Relay {
  return async (req, signal) => {
    refuseUndeclared(server, upstream, req);
    const sent = exit && req.method !== "roots/list" ? { ...req, params: maskParams(req.params, exit) } : req;
    return extra.sendRequest(sent as never, SCHEMA[req.method], { signal }) as Promise<Record<string, unknown>>;
  };
}

/**
 * Once the client has initialized: offers it to the upstreams for roots/list outside calls and
 * forwards its roots/list_changed. Returns the session's key for upstreams.call (its processes of
 * roots-scoped servers) and the function that detaches the session.
 */
export function installRootsRelay(server: Server, upstreams: UpstreamManager, logger: Logger): { session: Relay; detach: () => void } {
  const session: Relay = async (req, signal) => {
    if (req.method !== "roots/list") {
      throw new McpError(McpErrorCode.InvalidRequest, `Spillway relays ${req.method} only while one of its client's tool calls runs.`);
    }
    refuseUndeclared(server, "the upstream server", req);
    return server.request({ method: "roots/list" }, ListRootsResultSchema, { signal }) as Promise<Record<string, unknown>>;
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await upstreams
      .rootsChanged(session)
      .catch((err) => logger.warn("could not forward roots/list_changed", { error: describeError(err) }));
  });
  return { session, detach: upstreams.addSession(session) };
}
