/**
 * How an HTTP upstream failed, read from the SDK's errors: a refusal that means the server speaks
 * only HTTP+SSE, a session the server no longer knows, a request that never reached it, and each as
 * a sentence for the agent and for doctor.
 */
import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describeError } from "../errors";

/**
 * A Streamable HTTP POST refused the way a server that only speaks HTTP+SSE refuses it (the MCP
 * spec's backwards-compatibility rule names 4xx; 400, 404 and 405 are what such servers answer,
 * while 401 and 403 are about credentials and are reported as they are).
 */
export function fallsBackToSse(err: unknown): boolean {
  return err instanceof StreamableHTTPError && (err.code === 400 || err.code === 404 || err.code === 405);
}

/**
 * The server no longer knows the session the request carried (it restarted, or expired it): the MCP
 * spec answers 404 to that and tells the client to start a new session; some servers answer 400
 * naming the session. Either way the request was not run, so it can be sent again on a new session.
 */
export function sessionGone(err: unknown): boolean {
  if (!(err instanceof StreamableHTTPError)) return false;
  return err.code === 404 || (err.code === 400 && /session/i.test(err.message));
}

/** The request never reached the server: the connection was refused, the name did not resolve, TLS failed. */
export function unreachable(err: unknown): string | null {
  if (!(err instanceof TypeError) || err.message !== "fetch failed") return null;
  const cause = (err as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : "fetch failed";
}

/**
 * An HTTP upstream's failure as a sentence: the status and what the server said (not the SDK's
 * "Error POSTing to endpoint"), the network's reason for a request that never arrived, and for
 * 401/403 where the token goes.
 */
export function describeUpstreamError(err: unknown): string {
  const network = unreachable(err);
  if (network !== null) return `cannot connect (${network})`;
  if (err instanceof StreamableHTTPError && (err.code ?? 0) > 0) {
    const said = err.message
      .replace(/^Streamable HTTP error: /, "")
      .replace(/^Error POSTing to endpoint: |^Failed to open SSE stream: /, "")
      .trim()
      .split("\n")[0]!
      .slice(0, 200);
    const token = err.code === 401 || err.code === 403 ? '; if it needs a token, give it in the entry\'s "headers"' : "";
    return `HTTP ${err.code}${said ? `: ${said}` : ""}${token}`;
  }
  if (err instanceof SseError && (err.code === 401 || err.code === 403))
    return `${describeError(err)}; if it needs a token, give it in the entry's "headers"`;
  return describeError(err);
}

/**
 * For an answer the SDK could not read as what was asked (a result whose `content` is not a list):
 * the first few places it went wrong, else null. The SDK's own message is pretty-printed JSON.
 */
export function invalidAnswer(err: unknown): string | null {
  const issues = (err as { issues?: unknown } | null)?.issues;
  // Zod's error (v3 names it ZodError, v4 $ZodError): a list of issues, each with a path.
  if (!(err instanceof Error) || !err.name.endsWith("ZodError") || !Array.isArray(issues)) return null;
  const said = (issues as { path?: unknown[]; message?: string }[])
    .slice(0, 3)
    .map((i) => `${i.path?.length ? i.path.join(".") : "the result"}: ${String(i.message ?? "invalid").slice(0, 120)}`);
  return said.join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");
}
