/** The checks behind `spillway doctor`. Each is read-only and answers one line; none throws. */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Engine } from "../../engine/engineApi";
import type { StoreHealth } from "../../store/read/reader";
import { fmtBytes } from "../format";
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
  try {
    accessSync(home, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      name: "home",
      detail: `${home} cannot be written (${code === "EROFS" ? "a read-only file system" : code}): no result can be stored or read back; point --home or SPILLWAY_HOME at a writable folder`,
    };
  }
  return { ok: true, name: "home", detail: `${home} (${octal(m)})` };
}

/** Below this, a result of a few MB cannot be stored: it reaches the agent, but unstored and unrecorded. */
export const DISK_LOW_BYTES = 64 * 1024 * 1024;

/** Room on the home's filesystem (`free`: what this process may use; measured by the caller). */
export function checkDisk(home: string, free: number): CheckResult {
  if (free < DISK_LOW_BYTES) {
    return {
      ok: false,
      name: "disk",
      detail: `${fmtBytes(free)} free where ${home} is: new results are passed to the agent without being stored or recorded; free some space (spillway sweep --compact gives back the index's free pages)`,
    };
  }
  return { ok: true, name: "disk", detail: `${fmtBytes(free)} free` };
}

export function checkToken(home: string): CheckResult {
  const path = tokenPath(home);
  if (!existsSync(path)) return { ok: true, name: "token", detail: `${path} not created yet (spillway serve creates it)` };
  const m = mode(path);
  if (m & 0o077) return { ok: false, name: "token", detail: `${path} is ${octal(m)}: run chmod 600 ${path}` };
  return { ok: true, name: "token", detail: `${path} (${octal(m)})` };
}

const COMPACT_HINT_BYTES = 64 * 1024 * 1024;

/** PRAGMA quick_check over the index. */
export function checkIndex(engine: Engine): CheckResult {
  try {
    const { problems, liveBlobs, bytes, freeBytes } = engine.reader.checkIndex();
    if (problems.length) return { ok: false, name: "index", detail: `quick_check found ${problems.length} problem(s): ${problems[0]}` };
    // Worth handing back once it is a real share of the file (a few MB of free pages are the next writes').
    const worth = freeBytes >= COMPACT_HINT_BYTES && freeBytes >= bytes / 4;
    return {
      ok: true,
      name: "index",
      detail:
        `quick_check ok, ${liveBlobs} live blobs; ${fmtBytes(bytes)} (${fmtBytes(freeBytes)} of it free pages, reused before the file grows)` +
        (worth ? "; spillway sweep --compact gives them back to the disk" : ""),
    };
  } catch (err) {
    return { ok: false, name: "index", detail: `cannot check the index: ${describeError(err)}` };
  }
}

const list = (ids: string[], n = 3) => ids.slice(0, n).join(", ") + (ids.length > n ? ` and ${ids.length - n} more` : "");

/**
 * Every live blob's file read and checked against its id (skipped with `--quick`). A damaged
 * or undecryptable blob is never served, but doctor fails until a deep sweep quarantines it.
 */
export function checkBlobs(health: StoreHealth, verified: boolean): CheckResult {
  const { scan } = health;
  const bad = scan.bad;
  const parts: string[] = [];
  if (verified) parts.push(`${scan.verified} live blobs match their ids (${fmtBytes(scan.verifiedBytes)} read)`);
  else parts.push("contents not read (--quick)");
  if (bad.length) {
    const damaged = bad.filter((b) => b.problem === "corrupt").map((b) => b.id);
    const sealed = bad.filter((b) => b.problem === "undecryptable").map((b) => b.id);
    if (damaged.length) parts.push(`${damaged.length} damaged (content no longer matches its id): ${list(damaged)}`);
    if (sealed.length) parts.push(`${sealed.length} cannot be decrypted: ${list(sealed)}`);
  }
  if (scan.missingFiles.length) parts.push(`${scan.missingFiles.length} rows without a file: ${list(scan.missingFiles)}`);
  if (scan.unverifiable.length)
    parts.push(`${scan.unverifiable.length} files with no row that do not match their ids: ${list(scan.unverifiable.map((u) => u.id))}`);
  if (health.quarantined) parts.push(`${health.quarantined} files in quarantine`);
  const failed = bad.length > 0 || scan.missingFiles.length > 0 || scan.unverifiable.length > 0;
  return {
    ok: !failed,
    name: "blobs",
    detail: parts.join("; ") + (failed ? " (run spillway sweep --deep to quarantine or repair them)" : ""),
  };
}

/**
 * Files whose row the index lost (after a crash took the WAL) but whose content still matches
 * their id: whole results, kept and registered again by `spillway sweep`, never deleted.
 */
export function checkRecoverable(health: StoreHealth): CheckResult {
  const { recoverable, young } = health.scan;
  const note = young ? `; ${young} files written in the last 10 minutes not looked at yet` : "";
  if (recoverable.length === 0) return { ok: true, name: "recovery", detail: `no file without a row${note}` };
  return {
    ok: false,
    name: "recovery",
    detail: `${recoverable.length} recoverable files match their ids but have no row (the index lost them): ${list(recoverable)}; run spillway sweep to register them again${note}`,
  };
}

/** What a sweep would clean, counted without doing it; leftovers of kills do not fail the check. */
export function checkSweepDryRun(health: StoreHealth): CheckResult {
  const { scan } = health;
  const detail =
    `dry run: ${health.expired} expired, ${scan.tombstoneFiles.length} files of tombstones, ${scan.staleTemps.length} temp files${health.overCap ? ", store over its size cap" : ""}, ` +
    (health.detailTtlDays > 0
      ? `detail of ${health.detailDue} calls older than ${health.detailTtlDays} days to remove`
      : "call detail kept forever (store.detailTtlDays 0)");
  return { ok: true, name: "sweep", detail };
}

/** The encryption key: present, the one this store used (its key check value), and able to decrypt a known blob. */
export function checkKey(home: string, health: StoreHealth): CheckResult {
  const k = health.key;
  const where = k.status.provider === "file" ? join(home, "key") : `the ${k.status.provider}`;
  const fail = (detail: string): CheckResult => ({ ok: false, name: "key", detail });
  if (k.status.loadError) {
    // Until it is dealt with, every new credential result reaches the agent masked and unstored.
    const sealed = `${k.encrypted} result${k.encrypted === 1 ? "" : "s"} it sealed`;
    const aside =
      k.status.provider === "file"
        ? `; with no backup, move ${where} aside: a new key is made with the next credential result, new ones are stored again, and only the ${sealed} stay unreadable (spillway sweep --deep quarantines them)`
        : "";
    return fail(
      `cannot read the key from ${where}: ${k.status.loadError}. New credential results are passed on masked but not stored until it can: restore it from a backup${aside}`,
    );
  }
  if (k.status.keyId === null) {
    if (k.encrypted === 0 && k.status.check === "absent")
      return { ok: true, name: "key", detail: `no key yet (${where} is made with the first credential result)` };
    if (k.encrypted === 0) {
      const q = health.quarantined ? `; restore it to bring back what it sealed (${health.quarantined} files in quarantine)` : "";
      return {
        ok: true,
        name: "key",
        detail: `the key (${where}) is missing, but no live blob needs it: a new key is made with the next credential result${q}`,
      };
    }
    return fail(
      `the key is missing (${where}): ${k.encrypted} encrypted blob${k.encrypted === 1 ? "" : "s"} cannot be read and ${k.encrypted === 1 ? "is" : "are"} never served. ` +
        "Restore the key file from a backup; otherwise run spillway sweep --deep to quarantine them (a new key is made for the next credential result).",
    );
  }
  if (k.status.check === "mismatch") {
    return fail(
      `the key in ${where} (id ${k.status.keyId}) is not the key this store used (id ${k.status.checkKeyId ?? "unknown"}): restore the right key file`,
    );
  }
  if (k.underOtherKeys > 0) {
    return fail(
      `${k.underOtherKeys} encrypted blob${k.underOtherKeys === 1 ? " was" : "s were"} sealed with key ${k.otherKeyIds.join(", ")}, which this store no longer has: ` +
        "they cannot be read; restore that key file, or run spillway sweep --deep to quarantine them",
    );
  }
  if (k.sample && !k.sample.ok) return fail(`the key does not decrypt blob ${k.sample.id}: ${k.sample.detail}`);
  const proof = [k.status.check === "ok" ? "its key check value" : null, k.sample?.ok ? `blob ${k.sample.id}` : null]
    .filter(Boolean)
    .join(" and ");
  return {
    ok: true,
    name: "key",
    detail:
      `key ${k.status.keyId} (${where})${proof ? `, decrypts ${proof}` : ""}; ${k.encrypted} encrypted blobs` +
      (k.rotation
        ? `; an interrupted key rotation from key ${k.rotation.fromKeyId} is pending (${k.rotation.blobs} blob${k.rotation.blobs === 1 ? "" : "s"} still under that key, all readable): it is finished when the store is next opened with no other Spillway process running, or by spillway key rotate`
        : ""),
  };
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
    const over = u.transportKind === "sse" ? " over HTTP+SSE" : u.transportKind === "http" ? " over Streamable HTTP" : "";
    return {
      ok: true,
      name: "upstream",
      detail: `${name}: ${tools.length} tools in ${((Date.now() - started) / 1000).toFixed(1)} s${over}`,
    };
  } catch (err) {
    return { ok: false, name: "upstream", detail: `${name}: ${describeError(err)}` };
  } finally {
    clearTimeout(timer);
    await u.close();
  }
}
