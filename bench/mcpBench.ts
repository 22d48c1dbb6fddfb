/**
 * The MCP proxy's cost on small calls: the same `echo` of server-everything called directly over
 * stdio, and through `spillway mcp` (one more stdio hop plus the interception path), in one run so
 * the ratio compares like with like. Also the proxy's own work alone (in-process, in-memory
 * transport), and throughput of `spillway serve` with 8 concurrent HTTP clients.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { parseConfig } from "../core/config/config";
import { createEngine } from "../core/engine/engine";
import { createUpstreams } from "../core/endpoint/endpoint";
import { createProxyServer } from "../core/mcp/proxyServer";
import { stderrLogger } from "../core/runtime";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin/spillway.js");
const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);
const WARMUP = 50;
const CALLS = 500;
const HTTP_CLIENTS = 8;
const HTTP_SECONDS = 3;

const echo = (c: Client, i: number) => c.callTool({ name: "echo", arguments: { message: `hello ${i}` } });

function pct(sorted: number[], p: number): number {
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(3);
}

async function latency(c: Client): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await echo(c, i);
  const t: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const s = performance.now();
    await echo(c, i);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50: pct(t, 50), p95: pct(t, 95) };
}

async function stdio(command: string, args: string[]): Promise<Client> {
  const c = new Client({ name: "bench", version: "1" });
  await c.connect(new StdioClientTransport({ command, args, cwd: ROOT, stderr: "ignore" }));
  return c;
}

function startServe(home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, "serve", "--home", home, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on("exit", (code) => reject(new Error(`spillway serve exited (${code})`)));
  });
}

async function throughput(home: string): Promise<Record<string, number>> {
  const { child, url } = await startServe(home);
  const token = readFileSync(join(home, "token"), "utf8").trim();
  try {
    const clients = await Promise.all(
      Array.from({ length: HTTP_CLIENTS }, async () => {
        const c = new Client({ name: "bench-http", version: "1" });
        await c.connect(
          new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
        );
        for (let i = 0; i < 20; i++) await echo(c, i);
        return c;
      }),
    );
    const times: number[] = [];
    const end = performance.now() + HTTP_SECONDS * 1000;
    await Promise.all(
      clients.map(async (c, k) => {
        for (let i = 0; performance.now() < end; i++) {
          const s = performance.now();
          await echo(c, k * 1_000_000 + i);
          times.push(performance.now() - s);
        }
      }),
    );
    await Promise.all(clients.map((c) => c.close()));
    times.sort((a, b) => a - b);
    return {
      clients: HTTP_CLIENTS,
      calls: times.length,
      callsPerSec: Math.round(times.length / HTTP_SECONDS),
      p50Ms: pct(times, 50),
      p95Ms: pct(times, 95),
    };
  } finally {
    child.kill("SIGTERM");
  }
}

/** Proxy processing alone: client and proxy in this process over an in-memory transport, upstream over stdio. */
async function inProcess(home: string): Promise<{ p50: number; p95: number }> {
  const engine = createEngine({
    home,
    config: parseConfig({ mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
    logger: stderrLogger("error"),
  });
  const upstreams = createUpstreams(engine);
  const server = createProxyServer({ engine, upstreams, sessionId: "bench-in-process" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const c = new Client({ name: "bench-mem", version: "1" });
  await c.connect(a);
  try {
    return await latency(c);
  } finally {
    await c.close();
    await upstreams.close();
    await engine.close();
  }
}

export async function benchMcp(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), "spillway-mcpbench-"));
  writeFileSync(
    join(home, "config.json"),
    JSON.stringify({ mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
  );
  try {
    const direct = await stdio(process.execPath, [EVERYTHING, "stdio"]);
    const viaSpillway = await stdio(process.execPath, [BIN, "mcp", "--home", home]);
    // Interleave the two series in halves so machine load drifts hit both alike.
    const d1 = await latency(direct);
    const p1 = await latency(viaSpillway);
    const d2 = await latency(direct);
    const p2 = await latency(viaSpillway);
    await direct.close();
    await viaSpillway.close();
    const d = { p50: Math.min(d1.p50, d2.p50), p95: Math.min(d1.p95, d2.p95) };
    const p = { p50: Math.min(p1.p50, p2.p50), p95: Math.min(p1.p95, p2.p95) };
    const mem = await inProcess(join(home, "inproc"));
    return {
      calls: CALLS,
      directMs: d,
      proxiedMs: p,
      addedP50Ms: +(p.p50 - d.p50).toFixed(3),
      addedP95Ms: +(p.p95 - d.p95).toFixed(3),
      ratioP50: +(p.p50 / d.p50).toFixed(2),
      inProcessProxyMs: mem,
      http: await throughput(join(home, "http")),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify(await benchMcp()));
}
