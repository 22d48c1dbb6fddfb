/**
 * Upstream failures as the one coded error. In their own module so the proxy can name them
 * without loading the MCP client (upstream.ts), which loads with the first upstream.
 */
import { ErrorCode, SpillwayError } from "../errors";

/** An upstream failure as the one coded error, with a sentence for the model. */
export function upstreamError(message: string, cancelled = false): SpillwayError {
  return new SpillwayError(cancelled ? ErrorCode.Cancelled : ErrorCode.Upstream, message);
}

/** Whether `err` is an upstream failure (already a sentence for the model). */
export function isUpstreamError(err: unknown): err is SpillwayError {
  return err instanceof SpillwayError && (err.code === ErrorCode.Upstream || err.code === ErrorCode.Cancelled);
}

/** `data.reason` of the error a client transport answers for an upstream answer over Spillway's own size limit. */
export const ANSWER_TOO_LARGE = "spillway/answer_too_large";
