/**
 * `spillway connect <agent> --write`: merges the agent's snippet into its config file (`--remove`
 * takes it out again, from every file the agent reads it from), after a backup copy of the file as
 * it was, with an atomic replace that keeps the file's permissions. A symbolic link (a dotfiles
 * setup) stays a link: the file it points to is written. A file its owner made read-only is refused.
 */
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import { ErrorCode, SpillwayError } from "../errors";
import { writeFileAtomic } from "../fs/fsUtil";

/** Where an agent keeps its user-level config, for the environment the CLI runs in. */
export interface HostEnv {
  /** The user's home folder (os.homedir(), which follows $HOME). */
  homeDir: string;
  env: Record<string, string | undefined>;
}

/** An agent's config file(s) and how Spillway's entry goes into them. */
export interface WriteTarget {
  /** The file `--write` merges into. */
  file: string;
  /** Every file the agent reads the entry from, which `--remove` takes it out of (default: just `file`). */
  removeFrom?: string[];
  /** The file's new text from its current text (undefined when the file does not exist yet). */
  merge(current: string | undefined): string;
  /** `file`'s text without Spillway's entry (as it was when it has none; undefined when there is no file). */
  remove(current: string | undefined, file: string): string | undefined;
  /** What to run to check the result with the agent's own CLI. */
  check: string;
}

export interface WriteResult {
  file: string;
  /** When `file` is a symbolic link: the file it points to, which is the one written (the link stays). */
  linkTarget?: string;
  /** The copy of the previous file, beside `file` (the link, when it is one), when there was one and it changed. */
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

/** One file's planned change: read and computed before anything is written. */
interface Planned {
  file: string;
  linkTarget?: string;
  current?: string;
  next?: string;
}

/** The file a symbolic link at `file` ends at (it may not exist yet); undefined when `file` is no link. */
function linkTargetOf(file: string): string | undefined {
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  try {
    return realpathSync(file);
  } catch {
    // A link to a file not made yet: follow it by hand, to where the file is to be.
    let p = file;
    for (let hops = 0; hops < 40; hops++) {
      try {
        if (!lstatSync(p).isSymbolicLink()) return p;
      } catch {
        return p;
      }
      p = resolve(dirname(p), readlinkSync(p));
    }
    throw new SpillwayError(ErrorCode.BadConfig, `${file} is a loop of symbolic links; it was left as it is.`);
  }
}

function plan(file: string, edit: (current: string | undefined) => string | undefined): Planned {
  const linkTarget = linkTargetOf(file);
  const path = linkTarget ?? file;
  const current = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  return { file, linkTarget, current, next: edit(current) };
}

const changes = (p: Planned) => p.next !== undefined && p.next !== p.current;

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** Refuses a file its owner made read-only (or this user may not write), before any file is touched. */
function checkWritable(p: Planned, byHand: string): void {
  if (p.current === undefined) return;
  const path = p.linkTarget ?? p.file;
  const mode = statSync(path).mode & 0o777;
  let writable = (mode & 0o200) !== 0;
  try {
    accessSync(path, constants.W_OK);
  } catch {
    writable = false;
  }
  if (writable) return;
  const what = p.linkTarget ? `${p.file} (a link to ${p.linkTarget})` : p.file;
  throw new SpillwayError(
    ErrorCode.BadConfig,
    `${what} is read-only (mode ${mode.toString(8).padStart(4, "0")}), so it was left as it is: make it writable (chmod u+w ${quote(path)}) and run this again, or ${byHand}.`,
  );
}

/** Backs up and writes one planned change. */
function commit(p: Planned, now: Date): WriteResult {
  const path = p.linkTarget ?? p.file;
  let backup: string | undefined;
  let mode: number | undefined;
  if (p.current !== undefined) {
    // Beside the name the user knows (the link, not the dotfiles folder it points into).
    backup = `${p.file}.bak-${backupStamp(now)}`;
    for (let n = 2; existsSync(backup); n++) backup = `${p.file}.bak-${backupStamp(now)}-${n}`;
    copyFileSync(path, backup);
    mode = statSync(path).mode & 0o777;
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }
  writeFileAtomic(path, p.next!);
  // The atomic write creates a 0600 file; an existing file keeps the mode its owner gave it.
  if (mode !== undefined) chmodSync(path, mode);
  return { file: p.file, ...(p.linkTarget ? { linkTarget: p.linkTarget } : {}), backup, changed: true };
}

const unchanged = (p: Planned): WriteResult => ({ file: p.file, ...(p.linkTarget ? { linkTarget: p.linkTarget } : {}), changed: false });

/**
 * Merges Spillway's entry into `target.file` and writes it; an unchanged file is left alone (no
 * backup, no write). `byHand` ends the refusal of a read-only file: what the user can do instead.
 */
export function applyWrite(target: WriteTarget, now: Date = new Date(), byHand = "merge the snippet by hand"): WriteResult {
  const p = plan(target.file, (current) => target.merge(current));
  if (!changes(p)) return unchanged(p);
  checkWritable(p, byHand);
  return commit(p, now);
}

/**
 * Takes Spillway's entry out of every file of `target.removeFrom` that has it, one result per file.
 * Every file is read and checked first, so one that cannot be edited leaves all of them untouched.
 */
export function applyRemove(target: WriteTarget, now: Date = new Date(), byHand = "take Spillway's entry out by hand"): WriteResult[] {
  const seen = new Set<string>();
  const plans: Planned[] = [];
  for (const file of target.removeFrom ?? [target.file]) {
    const p = plan(file, (current) => target.remove(current, file));
    // Two names for one file (a link between them): it is edited once.
    const path = p.linkTarget ?? file;
    if (seen.has(path)) continue;
    seen.add(path);
    plans.push(p);
  }
  for (const p of plans) if (changes(p)) checkWritable(p, byHand);
  return plans.map((p) => (changes(p) ? commit(p, now) : unchanged(p)));
}
