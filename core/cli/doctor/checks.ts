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
    const { problems, liveBlobs } = engine.reader.checkIndex();
    if (problems.length) return { ok: false, name: "index", detail: `quick_check found ${problems.length} problem(s): ${problems[0]}` };
    return { ok: true, name: "index", detail: `quick_check ok, ${liveBlobs} live blobs` };
  } catch (err) {
    return { ok: false, name: "index", detail: `cannot check the index: ${describeError(err)}` };
  }
}

/** What a deep sweep would do, counted without doing it. Leftovers are repaired by `spillway sweep --deep`, so they do not fail the check. */
export function checkSweepDryRun(engine: Engine): CheckResult {
  try {
    const p = engine.reader.previewSweep();
    const missing = p.rowsWithoutFile;
    const detail = `dry run: ${p.expired} expired, ${p.orphanFiles} orphan files, ${missing} rows without a file, ${p.tempFiles} temp files${p.overCap ? ", store over its size cap" : ""}`;
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
