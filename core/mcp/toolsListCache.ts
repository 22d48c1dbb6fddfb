/**
 * The last complete tools/list answer `spillway mcp` gave, kept in the home as JSON so the early
 * reader (earlyStdio.ts) can give it again before the SDK, zod and SQLite load. It is only valid
 * for the build that wrote it (the CLI bundle's name, which carries a hash of its code) and the
 * config file as it was then (size, mtime, inode: nothing of its content, which may hold secrets).
 * What it holds is what the catalog in the index already holds: the upstream tools as advertised,
 * and the initialize instructions made from their servers' (masked, as kept in the catalog).
 * If the Server's own answer then differs (an upstream changed its list since), the client is told
 * to list again (stdioServerTransport.ts).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/fsUtil";

const FILE = "tools-list.json";

/** What a cached answer must match: the home it lives in, the build, the config file as it was at start. */
export interface ListKey {
  home: string;
  build: string;
  configPath: string;
  /** The config file's fingerprint when the process started (configFingerprint). */
  config: string;
}

/** Size, mtime and inode of the config file, or "absent". */
export function configFingerprint(path: string): string {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}:${s.ino}` : "absent";
}

/** What a start kept for the next: the tools/list result, and the instructions initialize gave with it (absent: Spillway's alone). */
export interface CachedAnswers {
  list: Record<string, unknown>;
  instructions?: string;
}

/** The cached answers for `key`, or null when there are none that match. */
export function readCachedAnswers(key: ListKey): CachedAnswers | null {
  let entry: unknown;
  try {
    entry = JSON.parse(readFileSync(join(key.home, FILE), "utf8"));
  } catch {
    return null;
  }
  if (!entry || typeof entry !== "object") return null;
  const e = entry as Record<string, unknown>;
  if (e.build !== key.build || e.configPath !== key.configPath || e.config !== key.config) return null;
  const result = e.result as { tools?: unknown } | undefined;
  if (!(result && typeof result === "object" && Array.isArray(result.tools))) return null;
  const list = result as Record<string, unknown>;
  return typeof e.instructions === "string" ? { list, instructions: e.instructions } : { list };
}

/** The cached tools/list result for `key`, or null when there is none that matches. */
export function readCachedList(key: ListKey): Record<string, unknown> | null {
  return readCachedAnswers(key)?.list ?? null;
}

/** Keeps `result` (and the instructions to answer initialize with) for `key`, atomically: a reader sees the old file or the new one. */
export function writeCachedList(key: ListKey, result: unknown, instructions?: string): void {
  const entry = { build: key.build, configPath: key.configPath, config: key.config, result, instructions };
  writeFileAtomic(join(key.home, FILE), JSON.stringify(entry));
}
