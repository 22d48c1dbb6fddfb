/** The bearer token of the local HTTP endpoint: `$SPILLWAY_HOME/token`, created once, owner-only. */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, FILE_MODE } from "../fs/fsUtil";
import { ErrorCode, SpillwayError } from "../errors";

export function tokenPath(home: string): string {
  return join(home, "token");
}

const TOKEN_RE = /^[0-9a-f]{64}$/;

function readToken(path: string): string {
  const token = readFileSync(path, "utf8").trim();
  if (!TOKEN_RE.test(token)) {
    throw new SpillwayError(
      ErrorCode.BadConfig,
      `${path} does not hold a Spillway token (64 hex characters): delete it and restart to create a new one.`,
    );
  }
  return token;
}

/**
 * Returns the token, creating it on first run. The file is written complete under a temporary
 * name and hard-linked into place, so two processes starting at once agree on one token and
 * nobody ever reads a half-written file.
 */
export function ensureToken(home: string): string {
  ensurePrivateDir(home);
  const path = tokenPath(home);
  try {
    return readToken(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, randomBytes(32).toString("hex") + "\n", { mode: FILE_MODE, flag: "wx" });
  try {
    linkSync(tmp, path); // fails with EEXIST when another process won the race: use its token
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  if ((statSync(path).mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  return readToken(path);
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
