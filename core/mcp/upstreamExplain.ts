/** Why an upstream request failed, as the sentence the agent gets (upstream.ts). */
import { ErrorCode as McpErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SpillwayError } from "../errors";
import { ANSWER_TOO_LARGE, isUpstreamError, upstreamError } from "./upstreamError";
import { describeUpstreamError, invalidAnswer, unreachable } from "./upstreamHttpErrors";

/** What the upstream knew when the request failed. */
export interface FailureContext {
  server: string;
  /** The tool or method asked for. */
  what: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** The connection is still open (a closed one means the server went away). */
  connected: boolean;
  /** The server's last stderr line, as " (its last message: …)", or "". */
  hint: string;
}

export function explainFailure(err: unknown, c: FailureContext): SpillwayError {
  const { server, what } = c;
  if (isUpstreamError(err)) return err;
  // The SDK rejects an aborted request with the timeout's error code: the signal says which it was.
  if (c.signal?.aborted) return upstreamError(`The call to ${what} was cancelled.`, true);
  // Spillway's own limit, not the server's refusal: say whose it is.
  if (err instanceof McpError && (err.data as { reason?: unknown } | undefined)?.reason === ANSWER_TOO_LARGE)
    return upstreamError(
      `Spillway could not read the answer of the upstream server ${server}: ${err.message.replace(/^(?:MCP error -?\d+: )+/, "")}.`,
    );
  const network = unreachable(err);
  if (network !== null) {
    return upstreamError(
      `The upstream server ${server} could not be reached for ${what} (${network}); Spillway tries it again on the next call.`,
    );
  }
  const local = localFailure(err);
  if (local === "timeout") {
    return upstreamError(`The upstream server ${server} did not answer ${what} within ${Math.round(c.timeoutMs / 1000)} s.`);
  }
  if (local === "closed" || !c.connected) {
    return upstreamError(`The upstream server ${server} stopped while running ${what}${c.hint}; Spillway restarts it on the next call.`);
  }
  if (err instanceof Error && err.name === "AbortError") return upstreamError(`The call to ${what} was cancelled.`, true);
  const invalid = invalidAnswer(err);
  if (invalid !== null)
    return upstreamError(`The upstream server ${server} answered ${what} with something that is not an MCP result (${invalid}).`);
  return upstreamError(`The upstream server ${server} refused ${what}: ${describeUpstreamError(err)}.`);
}

/**
 * The SDK's own failures (its timeout, the connection closing) carry the codes -32001 and -32000,
 * which a server may also send with an error of its own (-32000 is the usual "server error"):
 * only the SDK's messages count as a timeout or a lost connection.
 */
export function localFailure(err: unknown): "timeout" | "closed" | null {
  if (!(err instanceof McpError)) return null;
  const what = err.message.replace(/^MCP error -?\d+: /, "");
  if (err.code === McpErrorCode.RequestTimeout && /^(Request timed out|Maximum total timeout exceeded)$/.test(what)) return "timeout";
  if (err.code === McpErrorCode.ConnectionClosed && /^(Connection closed|Request was cancelled)$/.test(what)) return "closed";
  return null;
}
