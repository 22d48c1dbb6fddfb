/**
 * How fast `spillway mcp` is usable after an agent spawns it, measured from process spawn over N
 * spawns: the initialize answer; tools/list with no upstream, with the fixture upstream's tools in
 * the cached catalog, and on a first-ever start (no cache: it waits for the upstream); the first
 * call of an upstream tool (the upstream starts lazily, the engine loads). Beside them the floor:
 * a bare Node process answering the same requests, spawned the same way in the same run. Then the
 * RSS of an idle `spillway mcp` after initialize and tools/list. On a loaded machine the wall times
 * move with the load (printed too); the CPU each process used until its answer barely does.
 *
 * The client speaks raw JSON-RPC lines, so nothing of a client library is timed.
 * SPILLWAY_BENCH_BIN=/other/checkout/bin/spillway.js measures another build (before/after).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BIN = process.env.SPILLWAY_BENCH_BIN ?? join(ROOT, "bin/spillway.js");
const FIXTURE = join(ROOT, "tests/mcp/fixtures/fixtureServer.ts");
const SPAWNS = Number(process.env.SPILLWAY_BENCH_SPAWNS ?? 15);
/** How long a process sits idle before its RSS is read. */
const IDLE_MS = 2_000;

/** A process that answers initialize and tools/list and nothing else: what any Node server pays at least. */
const FLOOR = `process.stdin.on("data", (d) => { for (const l of String(d).split("\\n")) { if (!l) continue; const m = JSON.parse(l);
  if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: m.method === "tools/list" ? { tools: [] } : {} }) + "\\n"); } });
process.stdin.on("end", () => process.exit(0));`;

interface Rpc {
  child: ChildProcess;
  spawnedAt: number;
  /** The answer, when it arrived (ms from spawn), and the CPU the process had used by then (ms). */
  request(method: string, params?: unknown): Promise<{ result?: any; error?: any; at: number; cpu: number }>;
  notify(method: string): void;
  close(): Promise<void>;
}

function rpc(args: string[]): Rpc {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["pipe", "pipe", "ignore"] });
  const waiting = new Map<number, (m: any) => void>();
  let buf = "";
  let next = 1;
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (d: string) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      const at = performance.now() - spawnedAt;
      if (m.id !== undefined && waiting.has(m.id)) {
        waiting.get(m.id)!({ ...m, at, cpu: cpuMs(child.pid!) });
        waiting.delete(m.id);
      }
    }
  });
  const write = (m: object) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
  return {
    child,
    spawnedAt,
    request(method, params = {}) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        write({ id, method, params });
      });
    },
    notify: (method) => write({ method }),
    close: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-bench", version: "1" } };

/** initialize, then (as clients do) notifications/initialized and tools/list at once. */
async function handshake(r: Rpc): Promise<{ init: number; list: number; cpuInit: number; cpuList: number; tools: string[] }> {
  const init = await r.request("initialize", INIT);
  if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  r.notify("notifications/initialized");
  const list = await r.request("tools/list");
  return {
    init: init.at,
    list: list.at,
    cpuInit: init.cpu,
    cpuList: list.cpu,
    tools: (list.result?.tools ?? []).map((t: { name: string }) => t.name),
  };
}

/** User + system CPU of a process so far, from /proc (10 ms ticks): a figure the machine's load barely moves. */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

function stats(xs: number[]): { p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!);
  return { p50: at(0.5), p95: at(0.95) };
}

function home(mcpServers: Record<string, unknown> = {}): string {
  const h = mkdtempSync(join(tmpdir(), "spillway-startbench-"));
  writeFileSync(join(h, "config.json"), JSON.stringify({ mcpServers }));
  return h;
}

const fixture = { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT };
const mcp = (h: string) => [BIN, "mcp", "--home", h];

export async function benchStartup(): Promise<Record<string, unknown>> {
  const homes: string[] = [];
  const track = (h: string) => (homes.push(h), h);
  const bare = track(home());
  const cached = track(home({ fx: fixture }));
  try {
    // One run fills the catalog of `cached` (and writes the CLI bundle's code cache).
    {
      const r = rpc(mcp(cached));
      await handshake(r);
      await r.request("tools/call", { name: "digest", arguments: { text: "warm" } });
      await new Promise((res) => setTimeout(res, 2_500));
      await r.close();
    }
    const series: Record<string, number[]> = {
      floorInit: [],
      floorList: [],
      init: [],
      list: [],
      cachedInit: [],
      cachedList: [],
      firstCall: [],
      uncachedList: [],
    };
    const cpu: Record<string, number[]> = { floorInit: [], init: [], list: [], cachedList: [] };
    let cachedTools: string[] = [];
    let uncachedTools: string[] = [];
    // Interleaved, so load drifts on the machine hit every series alike.
    for (let i = 0; i < SPAWNS; i++) {
      const f = rpc(["-e", FLOOR]);
      const fh = await handshake(f);
      series.floorInit!.push(fh.init);
      series.floorList!.push(fh.list);
      cpu.floorInit!.push(fh.cpuInit);
      await f.close();

      const b = rpc(mcp(bare));
      const bh = await handshake(b);
      series.init!.push(bh.init);
      series.list!.push(bh.list);
      cpu.init!.push(bh.cpuInit);
      cpu.list!.push(bh.cpuList);
      await b.close();

      const c = rpc(mcp(cached));
      const ch = await handshake(c);
      series.cachedInit!.push(ch.init);
      series.cachedList!.push(ch.list);
      cpu.cachedList!.push(ch.cpuList);
      cachedTools = ch.tools;
      const call = await c.request("tools/call", { name: "digest", arguments: { text: "x" } });
      if (call.error || call.result?.isError) throw new Error(`digest failed: ${JSON.stringify(call)}`);
      series.firstCall!.push(call.at);
      await c.close();

      const fresh = track(home({ fx: fixture }));
      const u = rpc(mcp(fresh));
      const uh = await handshake(u);
      series.uncachedList!.push(uh.list);
      uncachedTools = uh.tools;
      await u.close();
    }
    const idle = async (h: string) => {
      const r = rpc(mcp(h));
      await handshake(r);
      await new Promise((res) => setTimeout(res, IDLE_MS));
      const mb = rssMb(r.child.pid!);
      await r.close();
      return mb;
    };
    const floorIdle = await (async () => {
      const r = rpc(["-e", FLOOR]);
      await handshake(r);
      await new Promise((res) => setTimeout(res, IDLE_MS));
      const mb = rssMb(r.child.pid!);
      await r.close();
      return mb;
    })();
    const out = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, stats(v)]));
    return {
      spawns: SPAWNS,
      bin: BIN,
      msFromSpawn: out,
      cpuMsUntilAnswer: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, stats(v)])),
      loadAverage: loadavg().map((x) => +x.toFixed(1)),
      toolsListed: { cached: cachedTools.length, firstStart: uncachedTools.length },
      idleRssMb: { noUpstream: await idle(bare), fixtureUpstream: await idle(cached), floor: floorIdle },
    };
  } finally {
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify(await benchStartup()));
}
