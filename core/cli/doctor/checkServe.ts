/**
 * Whether `spillway serve` answers on its port. The agents' hooks post to it: when nothing listens
 * they fail open (outputs reach the model as the tool gave them, unmasked and unstored), and when
 * it is stopped or hung every hooked tool call waits out the hook's timeout first.
 */
import { request } from "node:http";
import type { CheckResult } from "./checks";

/** How long doctor waits for an answer; serve answers a refused request in milliseconds. */
export const SERVE_ANSWER_MS = 2_000;

type Probe = "answers" | "refused" | "silent" | { error: string };

function probe(port: number, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    // No token: any HTTP answer (a 401) shows a server is there and working.
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "GET", timeout: timeoutMs }, (res) => {
      res.resume();
      resolve("answers");
    });
    req.on("timeout", () => {
      req.destroy();
      resolve("silent");
    });
    req.on("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED" ? "refused" : { error: err.message }));
    req.end();
  });
}

export async function checkServe(port: number, timeoutMs = SERVE_ANSWER_MS): Promise<CheckResult> {
  const url = `http://127.0.0.1:${port}`;
  const p = await probe(port, timeoutMs);
  if (p === "answers") return { ok: true, name: "serve", detail: `answers at ${url} (the agents' hooks are served)` };
  if (p === "refused")
    return {
      ok: true,
      name: "serve",
      detail: `not running at ${url}: hooks configured for it fail open (outputs reach the model unmasked and unstored) until spillway serve runs; MCP over stdio (spillway mcp) does not need it`,
    };
  if (p === "silent")
    return {
      ok: false,
      name: "serve",
      detail: `${url} accepts connections but does not answer within ${timeoutMs / 1000} s (a stopped or hung process): every hooked tool call waits out its hook's timeout; restart spillway serve`,
    };
  return { ok: false, name: "serve", detail: `cannot reach ${url}: ${p.error}` };
}
