/**
 * What Spillway's MCP server says about itself in its initialize answer: name and version,
 * capabilities, instructions, and the protocol versions it speaks. Kept apart from the SDK so the
 * early initialize answer (earlyStdio.ts) can give exactly the SDK Server's answer before the SDK
 * loads; serverIdentity.test.ts holds the version list to the SDK's.
 */
import { SPILLWAY_VERSION } from "./version";

/** serverInfo. */
export const SERVER_INFO = { name: "spillway", version: SPILLWAY_VERSION };

/** Always offered, as the upstreams start after the handshake: with none behind, the lists are empty. */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

// Short: a host may add these to every request. The handles and stubs say the rest.
export const SERVER_INSTRUCTIONS = [
  "Spillway sits between you and these tools. A result too large for your context arrives as a preview with an id",
  "(read more with rescuer_fetch); a repeat, or a re-run that changed a few lines, arrives as a stub (recall_result",
  "gives its exact text); spill:<id> in another tool's argument passes a stored result unread.",
].join(" ");

/** The SDK's LATEST_PROTOCOL_VERSION: what a client asking for an unknown version is offered. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS, in its order. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/**
 * The initialize result for a requested protocol version, built as the SDK Server builds it (same
 * keys, same order); `instructions` are Spillway's own followed by its upstreams' (upstreamInstructions.ts).
 */
export function initializeResult(requested: unknown, instructions = SERVER_INSTRUCTIONS): Record<string, unknown> {
  const protocolVersion =
    typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
  return { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, instructions };
}
