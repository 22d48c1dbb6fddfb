/** The checks behind `spillway doctor`. Each is read-only and answers one line; none throws. */
import { existsSync, statSync } from "node:fs";
import type { Engine } from "../../engine/engine";
import type { UpstreamConfig } from "../../config/config";
import { describeError } from "../../errors";
import { tokenPath } from "../../http/token";
import { Upstream } from "../../mcp/upstream";
import type { Logger } from "../../runtime";

export interface CheckResult {
  ok: boolean;
  name: string;
  detail: string;
}

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (m: number) => "0" + m.toString(8);

export function checkHome(home: string): CheckResult {
  if (!existsSync(home)) return { ok: true, name: "home", detail: `${home} does not exist yet (it is created on first use)` };
  const st = statSync(home);
  if (!st.isDirectory()) return { ok: false, name: "home", detail: `${home} is not a folder` };
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    return { ok: false, name: "home", detail: `${home} belongs to another user (uid ${st.uid})` };
  }
  const m = mode(home);
  if (m & 0o077) return { ok: false, name: "home", detail: `${home} is ${octal(m)}: others can read it; run chmod 700 ${home}` };
  return { ok: true, name: "home", detail: `${home} (${octal(m)})` };
}

export function checkToken(home: string): CheckResult {
  const path = tokenPath(home);
  if (!existsSync(path)) return { ok: true, name: "token", detail: `${path} not created yet (spillway serve creates it)` };
  const m = mode(path);
  if (m & 0o077) return { ok: false, name: "token", detail: `${path} is ${octal(m)}: run chmod 600 ${path}` };
  return { ok: true, name: "token", detail: `${path} (${octal(m)})` };
}

/** PRAGMA quick_check over the index. */
export function checkIndex(engine: Engine): CheckResult {
  try {
    const rows = engine.store.db.pragma("quick_check") as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
    if (problems.length) return { ok: false, name: "index", detail: `quick_check found ${problems.length} problem(s): ${problems[0]}` };
    const live = engine.store.db.prepare("SELECT COUNT(*) AS n FROM blobs WHERE tombstoned_at IS NULL").get() as { n: number };
    return { ok: true, name: "index", detail: `quick_check ok, ${live.n} live blobs` };
  } catch (err) {
    return { ok: false, name: "index", detail: `cannot check the index: ${describeError(err)}` };
  }
}

/** What a deep sweep would do, counted without doing it. Leftovers are repaired by `spillway sweep --deep`, so they do not fail the check. */
export function checkSweepDryRun(engine: Engine): CheckResult {
  try {
    const db = engine.store.db;
    const now = engine.store.now;
    const expired = (db.prepare("SELECT COUNT(*) AS n FROM blobs WHERE tombstoned_at IS NULL AND pinned = 0 AND expires_at <= ?").get(now) as { n: number }).n;
    const { ids, temps } = engine.store.files.scan();
    const liveIds = new Set((db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").all() as { id: string }[]).map((r) => r.id));
    const orphans = ids.filter((id) => !liveIds.has(id)).length;
    const onDisk = new Set(ids);
    const missing = [...liveIds].filter((id) => !onDisk.has(id)).length;
    const over = engine.store.usedBytes() > engine.store.capBytes();
    const detail = `dry run: ${expired} expired, ${orphans} orphan files, ${missing} rows without a file, ${temps.length} temp files${over ? ", store over its size cap" : ""}`;
    return { ok: missing === 0, name: "sweep", detail: missing ? `${detail} (run spillway sweep --deep)` : detail };
  } catch (err) {
    return { ok: false, name: "sweep", detail: `cannot scan the store: ${describeError(err)}` };
  }
}

/** Connects to one upstream and lists its tools, under a timeout. */
export async function checkUpstream(name: string, config: UpstreamConfig, logger: Logger, timeoutMs: number): Promise<CheckResult> {
  const u = new Upstream(name, config, { logger, timeoutMs, onToolsChanged: () => {} });
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    const tools = await Promise.race([u.listTools(true), timeout]);
    return { ok: true, name: "upstream", detail: `${name}: ${tools.length} tools in ${((Date.now() - started) / 1000).toFixed(1)} s` };
  } catch (err) {
    return { ok: false, name: "upstream", detail: `${name}: ${describeError(err)}` };
  } finally {
    clearTimeout(timer);
    await u.close();
  }
}
