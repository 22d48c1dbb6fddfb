/**
 * Running a real agent CLI headless for the host tests: temp HOME and config folders, the
 * fixture upstream, `spillway connect` as a user runs it, a loopback proxy that records (and
 * refuses) any attempt to reach the network, and the ground truth of the big tool's output.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, ROOT, textOf, upstream } from "../../mcp/helpers/setup";
import { BIG_ARGS } from "./policy";

export { BIN, ROOT };

/** A host's binary from node_modules/.bin (the devDependency, never a global install). */
export const hostBin = (name: string): string => join(ROOT, "node_modules/.bin", name);

export interface HostDirs {
  root: string;
  /** $HOME of the host process. */
  home: string;
  /** Spillway's home, with the fixture upstream configured. */
  spillwayHome: string;
  /** The folder the host runs in. */
  work: string;
  cleanup(): void;
}

export function hostDirs(prefix: string): HostDirs {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const dirs = { root, home: join(root, "home"), spillwayHome: join(root, "spillway"), work: join(root, "work") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true, mode: 0o700 });
  writeFileSync(join(dirs.spillwayHome, "config.json"), JSON.stringify({ mcpServers: { fx: upstream.fixture() } }, null, 2));
  return { ...dirs, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const require = createRequire(import.meta.url);

/**
 * The fixture upstream as a host launches it directly (the run without Spillway): tsx is named
 * by its absolute path, so the command works from any folder, as a host's config needs.
 */
export function fixtureUpstream(): { command: string; args: string[]; cwd: string } {
  const fx = upstream.fixture();
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  return { ...fx, args: fx.args.map((a) => (a === "tsx" ? tsx : a)) };
}

export interface Exit {
  code: number | null;
  out: string;
  err: string;
}

/** Runs a command to its end; `limitMs` only bounds a hung host, it is not a timing assertion. */
export function run(
  command: string,
  args: string[],
  opts: { env: Record<string, string | undefined>; cwd: string; limitMs?: number },
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const limit = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish within ${opts.limitMs} ms\n${out.slice(-2000)}\n${err.slice(-2000)}`));
    }, opts.limitMs ?? 150_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(limit);
      resolve({ code, out, err });
    });
  });
}

/** `spillway <args>` as a user runs it, with the host's HOME and variables. */
export function spillway(args: string[], env: Record<string, string | undefined>): Promise<Exit> {
  return run(process.execPath, [BIN, ...args], { env, cwd: ROOT, limitMs: 60_000 });
}

/** The environment every host run starts from: the caller's PATH, a temp HOME, the recording proxy. */
export function baseEnv(dirs: HostDirs, proxyUrl: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: dirs.home,
    TMPDIR: process.env.TMPDIR,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    // Anything that honours the proxy variables and tries the network is recorded and refused.
    HTTPS_PROXY: proxyUrl,
    HTTP_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    http_proxy: proxyUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

export interface Blackhole {
  url: string;
  /** Every outbound attempt: "CONNECT host:port" or "GET http://…". */
  attempts: string[];
  close(): Promise<void>;
}

/** A loopback HTTP proxy that answers 503 to everything and records what was asked. */
export async function blackholeProxy(): Promise<Blackhole> {
  const attempts: string[] = [];
  const server = createServer((req, res) => {
    attempts.push(`${req.method} ${req.url}`);
    res.writeHead(503).end();
  });
  server.on("connect", (req, socket) => {
    attempts.push(`CONNECT ${req.url}`);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 503 Service Unavailable\r\n\r\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface GroundTruth {
  /** Exactly what big_log returns for BIG_ARGS. */
  log: string;
  digest: string;
}

/** Asks the fixture upstream itself (no Spillway, no host) what the big call returns. */
export async function groundTruth(): Promise<GroundTruth> {
  const fx = upstream.fixture();
  const client = new Client({ name: "ground-truth", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...fx, stderr: "ignore" }));
  try {
    const log = textOf(await client.callTool({ name: "big_log", arguments: { ...BIG_ARGS } }));
    return { log, digest: `length=${log.length} sha256=${createHash("sha256").update(log, "utf8").digest("hex")}` };
  } finally {
    await client.close();
  }
}

/**
 * A user's config as people write JSONC by hand: a comment on top, one on a key and one after the
 * last member, and with `trailingComma` a comma after that member (OpenCode reads it; Gemini CLI
 * 0.61 reads comments but refuses a trailing comma). `spillway connect --write` keeps all of it.
 */
export function handWrittenJsonc(config: Record<string, unknown>, trailingComma: boolean): string {
  const first = JSON.stringify(Object.keys(config)[0]);
  const body = JSON.stringify(config, null, 2)
    .replace(`\n  ${first}:`, `\n  // ${first}: set by me\n  ${first}:`)
    .replace(/\n}$/, `${trailingComma ? "," : ""}\n  // (more settings later)\n}`);
  return `// my config, written by hand\n${body}\n`;
}

/** Whether every line of `before` is in `after`, in the same order (lines may be added between them). */
export function keepsLines(before: string, after: string): boolean {
  const lines = after.split("\n");
  let at = 0;
  for (const line of before.split("\n")) {
    at = lines.indexOf(line, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}
