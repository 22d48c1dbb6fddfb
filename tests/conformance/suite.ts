/**
 * Runs the official conformance suite (server mode) against a URL and reads which scenarios
 * passed as its CLI summary counts them: no FAILURE check (WARNINGs are SHOULDs). By that rule
 * server-sse-polling passes with warnings only: its POST says protocol 2025-03-26, for which the
 * SDK's transport sends no priming event, so it has no SUCCESS check to give.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../mcp/helpers/setup";

const CLI = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SHIM = join(ROOT, "tests/conformance/fsGlobShim.mjs");

export interface SuiteRun {
  passed: Set<string>;
  failed: Map<string, string[]>;
  /** The checks each scenario reported SUCCESS on (none when the client never ran, for instance). */
  successes: Map<string, string[]>;
}

/** Reads the checks.json of each scenario the suite wrote under `out` (folders `<scenario>-<ISO time>`). */
function readRun(out: string, prefix: string): SuiteRun {
  const run: SuiteRun = { passed: new Set(), failed: new Map(), successes: new Map() };
  for (const dir of readdirSync(out)) {
    const scenario = dir.replace(prefix, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as {
      status: string;
      id: string;
      errorMessage?: string;
    }[];
    const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
    run.successes.set(
      scenario,
      checks.filter((c) => c.status === "SUCCESS").map((c) => c.id),
    );
    if (failures.length === 0) run.passed.add(scenario);
    else run.failed.set(scenario, failures);
  }
  return run;
}

/** Runs the suite's CLI with `args`, writing its results to a temporary folder; its exit code is ignored (failures are the data). */
async function runCli(args: string[], prefix: string): Promise<SuiteRun> {
  const out = mkdtempSync(join(tmpdir(), "spillway-conformance-"));
  try {
    await new Promise<void>((resolve) => {
      execFile(process.execPath, ["--import", SHIM, CLI, ...args, "-o", out], { cwd: out, maxBuffer: 64 << 20 }, () => resolve());
    });
    return readRun(out, prefix);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Every scenario of `--suite all` against `url`. */
export function runSuite(url: string): Promise<SuiteRun> {
  return runCli(["server", "--url", url, "--suite", "all"], "server-");
}

/** One client scenario: the suite starts its server and runs `command` with the server's URL appended. */
export function runClientScenario(scenario: string, command: string): Promise<SuiteRun> {
  return runCli(["client", "--command", command, "--scenario", scenario], "");
}

/**
 * A loopback reverse proxy adding the bearer token (the suite cannot send one). A loopback Host
 * is rewritten to the target's; any other Host goes through as sent, so the target's own
 * DNS-rebinding check still sees it. Origin is passed through untouched for the same reason.
 */
export async function tokenProxy(targetPort: number, token: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const host = req.headers.host ?? "";
    const loopback = /^(localhost|127\.0\.0\.1)(:\d+)?$/i.test(host);
    const origin = req.headers.origin;
    const headers = {
      ...req.headers,
      host: loopback ? `127.0.0.1:${targetPort}` : host,
      ...(origin && /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/i.test(origin) ? { origin: `http://127.0.0.1:${targetPort}` } : {}),
      authorization: `Bearer ${token}`,
    };
    const upstream = request({ host: "127.0.0.1", port: targetPort, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // The suite cancels SSE streams; the proxied request goes with them.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://localhost:${port}/mcp`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
