/**
 * `spillway doctor`: one line per check (home, config, index, blobs, recovery, key, sweep, token,
 * serve, each upstream); exit 1 if any fails. `--repair` rebuilds a damaged index from the stored files.
 */
import { existsSync } from "node:fs";
import { createEngine } from "../../engine/engine";
import { describeError } from "../../errors";
import { stderrLogger } from "../../runtime";
import { parsePort, type Command } from "../command";
import {
  checkBlobs,
  checkDisk,
  checkHome,
  checkIndex,
  checkKey,
  checkRecoverable,
  checkSweepDryRun,
  checkToken,
  checkUpstream,
  type CheckResult,
} from "../doctor/checks";
import { checkServe } from "../doctor/checkServe";
import { resolveConfig } from "../../home/home";
import { resolveHome } from "../../home/paths";
import { isDamagedIndex, rebuildIndex } from "../../store/rebuildIndex";
import { describeProcesses, otherStoreProcesses } from "../../store/processes";
import { freeBytesAt } from "../../store/compact";
import { indexBytesOnDisk } from "../../store";
import { fmtBytes } from "../format";
import type { SpillwayConfig } from "../../config/config";
import type { CommandContext } from "../command";

const UPSTREAM_TIMEOUT_MS = 15_000;

export const doctorCommand: Command = {
  usage: "[--quick] [--repair] [--port N]",
  summary:
    "Check the home folder, the store (every blob against its id; --quick skips that), the key, the token and every upstream server; --repair rebuilds a damaged index from the stored files (stop other Spillway processes first).",
  options: { quick: { type: "boolean" }, repair: { type: "boolean" }, port: { type: "string" } },
  async run(ctx) {
    const home = resolveHome({ home: ctx.values.home as string | undefined });
    const results: CheckResult[] = [];
    const print = (r: CheckResult) => {
      results.push(r);
      if (!ctx.values.json) ctx.io.out(`${r.ok ? "ok  " : "FAIL"}  ${r.name.padEnd(8)}  ${r.detail}`);
    };
    print(checkHome(home));
    if (existsSync(home)) print(checkDisk(home, freeBytesAt(home)));
    let config;
    try {
      const resolved = resolveConfig(home, { config: ctx.values.config as string | undefined });
      config = resolved.config;
      const n = Object.keys(config.mcpServers).length;
      print({
        ok: true,
        name: "config",
        detail: `${existsSync(resolved.path) ? resolved.path : "no config file: defaults"} (${n} upstream server${n === 1 ? "" : "s"})`,
      });
    } catch (err) {
      print({ ok: false, name: "config", detail: describeError(err) });
    }
    if (config && existsSync(home) && ctx.values.repair === true) {
      const damage = await indexDamage(home, config);
      if (damage === "search") print(await repairSearch(home, config));
      else if (damage === "index") print(await repair(ctx, home, config));
    }
    if (config && existsSync(home)) {
      const quiet = stderrLogger("error");
      try {
        const engine = createEngine({ home, config, logger: quiet });
        try {
          const verify = ctx.values.quick !== true;
          // On a big store the next two checks take a while: say so first, on stderr.
          for (const note of slowCheckNotes(indexBytesOnDisk(home), engine.reader.usedBytes(), verify)) ctx.io.err(note);
          print(withRepairHint(checkIndex(engine)));
          let health;
          try {
            health = engine.reader.health(verify);
          } catch (err) {
            print({ ok: false, name: "blobs", detail: `cannot scan the store: ${describeError(err)}` });
          }
          if (health) {
            print(checkBlobs(health, verify));
            print(checkRecoverable(health));
            print(checkKey(home, health));
            print(checkSweepDryRun(health));
          }
        } finally {
          await engine.close();
        }
      } catch (err) {
        print(withRepairHint({ ok: false, name: "index", detail: describeError(err) }, isDamagedIndex(err)));
      }
    }
    print(checkToken(home));
    if (config) print(await serveCheck(home, parsePort(ctx.values.port, 1) ?? config.server.port, ctx.values.port !== undefined));
    if (config) {
      const checks = Object.entries(config.mcpServers).map(([name, cfg]) =>
        cfg.disabled
          ? { ok: true, name: "upstream", detail: `${name}: disabled in the config, not started` }
          : checkUpstream(name, cfg, stderrLogger("error"), UPSTREAM_TIMEOUT_MS),
      );
      for (const r of await Promise.all(checks)) print(r);
    }
    if (ctx.values.json) ctx.io.out(JSON.stringify(results, null, 2));
    return results.every((r) => r.ok) ? 0 : 1;
  },
};

/**
 * serve on the port asked for (--port, else the config's); when nothing listens there but a serve
 * of this home runs on another port (started with --port), that one, named as such.
 */
async function serveCheck(home: string, port: number, asked: boolean): Promise<CheckResult> {
  const r = await checkServe(port);
  if (asked || !r.detail.startsWith("not running")) return r;
  const other = otherStoreProcesses(home).find((p) => p.port !== undefined && p.port !== port);
  if (!other) return r;
  const found = await checkServe(other.port!);
  return {
    ...found,
    detail: `${found.detail}; that is pid ${other.pid} (${other.what}) of this home, on port ${other.port} rather than the config's ${port}: hooks and agents must use that port`,
  };
}

/** From this size a check reads for long enough (tens of seconds) to say so before it starts. */
export const SLOW_CHECK_BYTES = 1024 ** 3;

/** What doctor says on stderr before its slow checks: the integrity check reads the whole index, the verify every stored result. */
export function slowCheckNotes(indexBytes: number, storeBytes: number, verify: boolean, from = SLOW_CHECK_BYTES): string[] {
  const notes: string[] = [];
  if (indexBytes >= from)
    notes.push(`doctor: checking the index (${fmtBytes(indexBytes)}): the integrity check reads all of it, which can take a minute…`);
  if (verify && storeBytes >= from)
    notes.push(
      `doctor: then every stored result against its id (${fmtBytes(storeBytes)} in all; --quick skips this), which can take minutes…`,
    );
  return notes;
}

const REPAIR_HINT = "; run spillway doctor --repair to rebuild it from the stored files (stop other Spillway processes first)";

/** A failed index check names the way out. */
function withRepairHint(r: CheckResult, damaged = !r.ok && /quick_check found|malformed|not a database/.test(r.detail)): CheckResult {
  return damaged ? { ...r, detail: r.detail + REPAIR_HINT } : r;
}

/**
 * How the index is damaged: not at all, only in its search index (rows derived from the blobs,
 * rebuilt in place), or otherwise (it cannot be opened, or quick_check finds other tables damaged).
 */
async function indexDamage(home: string, config: SpillwayConfig): Promise<"none" | "search" | "index"> {
  let engine;
  try {
    engine = createEngine({ home, config, logger: stderrLogger("error") });
  } catch (err) {
    return isDamagedIndex(err) ? "index" : "none";
  }
  try {
    const { problems } = engine.reader.checkIndex();
    if (problems.length === 0) return "none";
    return problems.every((p) => SEARCH_ONLY.test(p)) ? "search" : "index";
  } catch (err) {
    return isDamagedIndex(err) ? "index" : "none";
  } finally {
    await engine.close();
  }
}

/**
 * A repair's refusal while another process has the store open: it would go on writing into the
 * index set aside (or the one being rebuilt), and the files it writes now are not settled.
 */
function refusedWhileShared(home: string): CheckResult | null {
  const others = otherStoreProcesses(home);
  if (!others.length) return null;
  return { ok: false, name: "repair", detail: `not run while other Spillway processes use this store: ${describeProcesses(others, home)}` };
}

/** quick_check's words for damage inside the FTS5 search index alone. */
const SEARCH_ONLY = /^fts5: |search_chunks/;

/** Rebuilds the search index alone: every call, session and figure stays; the blobs are indexed again. */
async function repairSearch(home: string, config: SpillwayConfig): Promise<CheckResult> {
  const shared = refusedWhileShared(home);
  if (shared) return shared;
  try {
    const engine = createEngine({ home, config, logger: stderrLogger("error") });
    try {
      const n = engine.rebuildSearchIndex();
      await engine.idle();
      const left = engine.reader.checkIndex().problems;
      if (left.length) return { ok: false, name: "repair", detail: `the search index was rebuilt but quick_check still finds: ${left[0]}` };
      return {
        ok: true,
        name: "repair",
        detail: `only the search index was damaged: rebuilt, ${n} live results indexed again (calls, sessions and figures kept as they were)`,
      };
    } finally {
      await engine.close();
    }
  } catch (err) {
    return { ok: false, name: "repair", detail: describeError(err) };
  }
}

/** Sets the damaged index aside, makes a new one from what can be read, and registers every stored file again. */
async function repair(ctx: CommandContext, home: string, config: SpillwayConfig): Promise<CheckResult> {
  const shared = refusedWhileShared(home);
  if (shared) return shared;
  try {
    const r = rebuildIndex(home);
    const engine = createEngine({ home, config, logger: stderrLogger("error") });
    let swept;
    try {
      swept = engine.sweep(true, true, false, true);
    } finally {
      await engine.close();
    }
    const carried = `${r.carried.blobs} results and ${r.carried.session_blobs} session links read back from it`;
    const lost = r.unreadable.length ? `; unreadable: ${r.unreadable.join("; ")}` : "";
    ctx.io.err(`repair: the damaged index is kept as ${r.setAside}`);
    return {
      ok: true,
      name: "repair",
      detail: `new index (store secret from the ${r.secretFrom}): ${carried}, ${swept.recovered} more recovered from their files, ${swept.repairedRows} rows without a file tombstoned${lost}`,
    };
  } catch (err) {
    return { ok: false, name: "repair", detail: describeError(err) };
  }
}
