/**
 * `spillway connect <agent> --write`: merges the agent's snippet into its config file (`--remove`
 * takes it out again), after a backup copy of the file as it was, with an atomic replace that keeps
 * the file's permissions.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../fs/fsUtil";

/** Where an agent keeps its user-level config, for the environment the CLI runs in. */
export interface HostEnv {
  /** The user's home folder (os.homedir(), which follows $HOME). */
  homeDir: string;
  env: Record<string, string | undefined>;
}

/** One agent config file and how Spillway's entry goes into it. */
export interface WriteTarget {
  file: string;
  /** The file's new text from its current text (undefined when the file does not exist yet). */
  merge(current: string | undefined): string;
  /** The file's text without Spillway's entry (as it was when it has none; undefined when there is no file). */
  remove(current: string | undefined): string | undefined;
  /** What to run to check the result with the agent's own CLI. */
  check: string;
}

export interface WriteResult {
  file: string;
  /** The copy of the previous file, when there was one and it changed. */
  backup?: string;
  changed: boolean;
}

/** A sortable, filename-safe timestamp: 20260101T120000Z. */
export function backupStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** Merges (or removes) and writes; an unchanged file is left alone (no backup, no write). */
export function applyWrite(target: WriteTarget, now: Date = new Date(), op: "merge" | "remove" = "merge"): WriteResult {
  const exists = existsSync(target.file);
  const current = exists ? readFileSync(target.file, "utf8") : undefined;
  const next = op === "merge" ? target.merge(current) : target.remove(current);
  if (next === current || next === undefined) return { file: target.file, changed: false };
  let backup: string | undefined;
  if (exists) {
    backup = `${target.file}.bak-${backupStamp(now)}`;
    for (let n = 2; existsSync(backup); n++) backup = `${target.file}.bak-${backupStamp(now)}-${n}`;
    copyFileSync(target.file, backup);
  } else {
    mkdirSync(dirname(target.file), { recursive: true });
  }
  const mode = exists ? statSync(target.file).mode & 0o777 : undefined;
  writeFileAtomic(target.file, next);
  // The atomic write creates a 0600 file; an existing file keeps the mode its owner gave it.
  if (mode !== undefined) chmodSync(target.file, mode);
  return { file: target.file, backup, changed: true };
}
