/**
 * The MCP client an upstream connection runs on: the capabilities it declares to the server, and
 * the handlers that pass the server's requests to its client on to the proxy (which relays them).
 */
import { Client, getSupportedElicitationModes } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { lazySchemaValidator } from "./schemaValidator";
import type { ClientBoundRequest, UpstreamOptions } from "./upstreamTypes";
import { SPILLWAY_VERSION } from "./version";

/**
 * The elicitation capability declared to a server: the modes the one client declared (an empty
 * declaration is form, as before modes existed). With no one client (serve), both modes: a URL-mode
 * request then reaches only a client that declared it, others are refused in a sentence (clientRelay).
 */
function elicitationFor(declared: ClientCapabilities["elicitation"] | boolean): ClientCapabilities["elicitation"] {
  if (declared === false || declared === undefined) return undefined;
  if (declared === true) return { form: {}, url: {} };
  const { supportsFormMode, supportsUrlMode } = getSupportedElicitationModes(declared);
  return { ...(supportsFormMode ? { form: {} } : {}), ...(supportsUrlMode ? { url: {} } : {}) };
}

/**
 * A client declaring what the proxy can relay, the server's requests handed to
 * `opts.onClientRequest`; `declaredRoots`: whether the server may hear roots/list_changed.
 */
export function upstreamClient(opts: UpstreamOptions, onListChanged: () => void): { client: Client; declaredRoots: boolean } {
  // Declared so servers may ask; the proxy refuses with a sentence when its own client cannot answer.
  // A server may offer tools only to clients that declare these (server-everything does, for
  // all three), so what is declared is what the proxy's client can answer when the manager knows it.
  const relay = opts.onClientRequest;
  const { sampling, elicitation: declared, roots } = (relay && opts.relays) || { sampling: !!relay, elicitation: !!relay, roots: !!relay };
  const elicitation = elicitationFor(declared);
  const capabilities = {
    ...(sampling ? { sampling: {} } : {}),
    ...(elicitation ? { elicitation } : {}),
    ...(roots ? { roots: { listChanged: true } } : {}),
  };
  const client = new Client({ name: "spillway", version: SPILLWAY_VERSION }, { capabilities, jsonSchemaValidator: lazySchemaValidator() });
  if (relay && sampling)
    client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => relay(req as ClientBoundRequest, extra.signal) as never);
  if (relay && elicitation)
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => relay(req as ClientBoundRequest, extra.signal) as never);
  if (relay && roots)
    client.setRequestHandler(ListRootsRequestSchema, async (req, extra) => relay(req as ClientBoundRequest, extra.signal) as never);
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => onListChanged());
  client.fallbackNotificationHandler = async (n) => opts.onNotification?.(n as { method: string; params?: Record<string, unknown> });
  return { client, declaredRoots: roots };
}
