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
  if (server.getClientCapabilities()?.[cap]) return;
  throw new McpError(
    McpErrorCode.InvalidRequest,
    `The client connected to Spillway did not declare ${cap}, so ${upstream} cannot ask it for ${req.method}.`,
  );
}

/** The relay for one call running on `upstream`: its requests go to the client on that call's stream. */
export function relayTo(server: Server, upstream: string, extra: Extra): Relay {
  return async (req, signal) => {
    refuseUndeclared(server, upstream, req);
    return extra.sendRequest(req as never, SCHEMA[req.method], { signal }) as Promise<Record<string, unknown>>;
  };
}

/**
 * Once the client has initialized: offers it to the upstreams for roots/list outside calls and
 * forwards its roots/list_changed. Returns the function that detaches the session.
 */
export function installRootsRelay(server: Server, upstreams: UpstreamManager, logger: Logger): () => void {
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await upstreams.rootsChanged().catch((err) => logger.warn("could not forward roots/list_changed", { error: describeError(err) }));
  });
  return upstreams.addSession(async (req, signal) => {
    if (req.method !== "roots/list") {
      throw new McpError(McpErrorCode.InvalidRequest, `Spillway relays ${req.method} only while one of its client's tool calls runs.`);
    }
    refuseUndeclared(server, "the upstream server", req);
    return server.request({ method: "roots/list" }, ListRootsResultSchema, { signal }) as Promise<Record<string, unknown>>;
  });
}
