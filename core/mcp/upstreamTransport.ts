/** The transport an upstream entry names: a child over stdio, Streamable HTTP, or HTTP+SSE. */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { UpstreamConfig, UpstreamTransport } from "../config/config";
import type { Logger } from "../runtime";
import { limitedFetch } from "./httpClientLimit";
import { MAX_MESSAGE_BYTES } from "./lineReader";
import { LineStdioClientTransport } from "./stdioClientTransport";

/** How many of a child's last stderr lines are kept to explain its failures. */
const STDERR_LINES = 20;

/**
 * A transport for `entry` (its variables already filled in) over `kind`. A stdio child's stderr
 * lines go to `stderrTail`, which keeps the last few; answers over Spillway's size limit are
 * skipped and logged.
 */
export function upstreamTransport(
  name: string,
  entry: UpstreamConfig,
  kind: UpstreamTransport,
  logger: Logger,
  stderrTail: string[],
): Transport {
  if ("url" in entry) {
    const skipped = (why: string) => logger.warn("upstream answer skipped", { server: name, why });
    if (kind === "sse") {
      // Answers come on the one GET stream, so the limiter keeps the ids the POSTs asked for.
      return new SSEClientTransport(new URL(entry.url), {
        requestInit: { headers: entry.headers },
        fetch: limitedFetch(MAX_MESSAGE_BYTES, fetch, skipped, new Map()),
      });
    }
    return new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: entry.headers },
      fetch: limitedFetch(MAX_MESSAGE_BYTES, fetch, skipped),
    });
  }
  // The user's servers inherit this environment, as their agents would start them.
  const env = { ...(process.env as Record<string, string>), ...entry.env };
  const t = new LineStdioClientTransport({ command: entry.command, args: entry.args, env, cwd: entry.cwd, stderr: "pipe" });
  t.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) stderrTail.push(line.slice(0, 500));
    if (stderrTail.length > STDERR_LINES) stderrTail.splice(0, stderrTail.length - STDERR_LINES);
  });
  return t;
}
