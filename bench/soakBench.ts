/**
 * Memory under sustained load: the endpoint `spillway serve` runs (in this process, so its memory
 * is measured alone; the clients run in bench/soakLoad.ts) with a stdio upstream, 32 HTTP
 * sessions, rounds of 3,200 calls (small results, rescued logs, repeats that become stubs,
 * fetches). Prints RSS and heap after each round; the figure is RSS growth after round 2 (target
 * under 15 %). `abandonPerRound` adds sessions that go away without DELETE.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseConfig } from "../core/config/config";
import { createEngine } from "../core/engine/engine";
import { startEndpoint } from "../core/endpoint/endpoint";
import { FakeClock, stderrLogger } from "../core/runtime";

const ROOT = join(import.meta.dirname, "..");
const FIXTURE = join(ROOT, "tests/mcp/fixtures/fixtureServer.ts");

export interface SoakOptions {
  sessions?: number;
  rounds?: number;
  callsPerRound?: number;
  abandonPerRound?: number;
  /** New MCP sessions (ended with DELETE) every round instead of the same ones throughout. */
  freshSessions?: boolean;
  /** Lines of each rescued log (400 is about 24 KB). */
  logLines?: number;
}

const mbOf = (b: number) => Math.round(b / 1048576);

export async function benchSoak(opts: SoakOptions = {}): Promise<Record<string, unknown>> {
  const sessions = opts.sessions ?? 32;
  const rounds = opts.rounds ?? 6;
  const perRound = opts.callsPerRound ?? 3_200;
  const home = mkdtempSync(join(tmpdir(), "spillway-soak-"));
  const config = parseConfig({ mcpServers: { fx: { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT } } });
  const engine = createEngine({ home, config, logger: stderrLogger("error"), sweepTimer: true });
  const ep = await startEndpoint({ engine, home, port: 0 });
  const token = readFileSync(join(home, "token"), "utf8").trim();
  const load = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "soakLoad.ts"), ep.mcpUrl, token, String(sessions), String(opts.logLines ?? 400)],
    { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: load.stdout! })[Symbol.asyncIterator]();
  const expect = async (want: string) => {
    const { value } = await lines.next();
    if (value !== want) throw new Error(`soak load said ${String(value)}, expected ${want}`);
  };
  const rows: { round: number; rssMb: number; heapUsedMb: number; externalMb: number; sessions: number; seconds: number }[] = [];
  let drainMs = 0;
  const sample = (round: number, seconds: number) => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    rows.push({
      round,
      rssMb: mbOf(m.rss),
      heapUsedMb: mbOf(m.heapUsed),
      externalMb: mbOf(m.external),
      sessions: ep.mcp.sessions().length,
      seconds,
    });
    console.error(
      `  round ${round}: RSS ${mbOf(m.rss)} MB, heap ${mbOf(m.heapUsed)} MB, external ${mbOf(m.external)} MB, ${ep.mcp.sessions().length} open sessions (${seconds} s)`,
    );
  };
  try {
    await expect("ready");
    sample(0, 0);
    for (let round = 1; round <= rounds; round++) {
      const t0 = performance.now();
      load.stdin!.write(`round ${round} ${perRound} ${opts.abandonPerRound ?? 0} ${opts.freshSessions ? 1 : 0}\n`);
      await expect(`done ${round}`);
      // No pause between rounds (the load is sustained): a background backlog that outgrows the
      // load shows here as growth.
      sample(round, Math.round((performance.now() - t0) / 100) / 10);
    }
    const d0 = performance.now();
    await engine.idle();
    drainMs = Math.round(performance.now() - d0);
  } finally {
    load.stdin!.end();
    await new Promise((r) => load.once("exit", r));
    await ep.close();
    await engine.close();
    rmSync(home, { recursive: true, force: true });
  }
  const base = rows[2]!.rssMb;
  return {
    sessions,
    rounds,
    callsPerRound: perRound,
    abandonPerRound: opts.abandonPerRound ?? 0,
    rssMb: rows.map((r) => r.rssMb),
    heapUsedMb: rows.map((r) => r.heapUsedMb),
    openSessions: rows.map((r) => r.sessions),
    secondsPerRound: rows.slice(1).map((r) => r.seconds),
    backgroundDrainAfterLastRoundMs: drainMs,
    growthAfterRound2Pct: Math.round(((rows.at(-1)!.rssMb - base) / base) * 1000) / 10,
  };
}

/**
 * What sessions closed without DELETE cost and whether reaping gives it back: 500 of them
 * (over a cap raised to 1,000), heap before and after, then after the idle timeout passes
 * (a fake clock) and the reaper runs.
 */
export async function benchAbandoned(count = 500): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), "spillway-abandon-"));
  const clock = new FakeClock(Date.now());
  const config = parseConfig({
    server: { maxSessions: 1_000 },
    mcpServers: { fx: { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT } },
  });
  const engine = createEngine({ home, config, clock, logger: stderrLogger("error") });
  const ep = await startEndpoint({ engine, home, port: 0 });
  const token = readFileSync(join(home, "token"), "utf8").trim();
  const load = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "soakLoad.ts"), ep.mcpUrl, token, "1"], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: load.stdout! })[Symbol.asyncIterator]();
  const heap = async () => {
    await engine.idle();
    (globalThis as { gc?: () => void }).gc?.();
    return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
  };
  try {
    await lines.next();
    // Warm-up: the first calls load code and the tokenizer tables, which stay whatever happens to sessions.
    load.stdin!.write("abandon 5\n");
    await lines.next();
    clock.advance(config.server.sessionIdleMinutes * 60_000 + 1);
    await ep.mcp.reapIdle();
    const before = await heap();
    load.stdin!.write(`abandon ${count}\n`);
    await lines.next();
    const open = ep.mcp.sessions().length;
    const abandoned = await heap();
    clock.advance(config.server.sessionIdleMinutes * 60_000 + 1);
    const reaped = await ep.mcp.reapIdle();
    const after = await heap();
    return {
      abandoned: count,
      openBeforeReap: open,
      reaped,
      openAfter: ep.mcp.sessions().length,
      heapMb: { before, withAbandoned: abandoned, afterReap: after },
    };
  } finally {
    load.stdin!.end();
    await new Promise((r) => load.once("exit", r));
    await ep.close();
    await engine.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  if (process.argv.includes("--abandoned")) {
    console.log(JSON.stringify(await benchAbandoned()));
    process.exit(0);
  }
  const arg = (k: string) => {
    const i = process.argv.indexOf(`--${k}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  console.log(
    JSON.stringify(
      await benchSoak({
        rounds: arg("rounds"),
        callsPerRound: arg("calls"),
        abandonPerRound: arg("abandon"),
        freshSessions: process.argv.includes("--fresh"),
        logLines: arg("lines"),
      }),
    ),
  );
}
