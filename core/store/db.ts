/** Opens the SQLite index: WAL, busy timeout for a second process, migrations, and the store secret. */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { accessSync, chmodSync, constants, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import { FILE_MODE, writeFileAtomic } from "../fs/fsUtil";
import { migrate } from "./migrations";

export type Db = Database.Database;

/** Bytes a checkpointed WAL file keeps when SQLite starts writing it from the top again. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** Where the SQLite index of a home lives. */
export function indexPath(home: string): string {
  return join(home, "index.sqlite");
}

/** Opens (creating if needed) the index at `path`; a failure names the step that failed. */
export function openIndex(path: string): Db {
  const created = !existsSync(path);
  let db: Db;
  try {
    db = new Database(path);
  } catch (err) {
    throw new SpillwayError(ErrorCode.StoreOpen, `cannot open the index ${path}: ${describeError(err)}`, { cause: err });
  }
  const step = (name: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      db.close();
      throw new SpillwayError(ErrorCode.StoreOpen, `cannot open the index ${path} (${name}): ${describeError(err)}${readOnlyHint(path)}`, {
        cause: err,
      });
    }
  };
  // busy_timeout first: a second process may hold the write lock while it migrates or writes.
  step("busy timeout", () => db.pragma("busy_timeout = 10000"));
  step("WAL mode", () => db.pragma("journal_mode = WAL"));
  step("synchronous", () => db.pragma("synchronous = NORMAL"));
  // A burst of writes grows the WAL; once checkpointed, its file is cut back to this when reused.
  step("WAL size limit", () => db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`));
  step("foreign keys", () => db.pragma("foreign_keys = ON"));
  step("migrations", () => migrate(db));
  if (created) {
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        chmodSync(path + suffix, FILE_MODE);
      } catch {
        /* -wal/-shm may not exist yet */
      }
    }
  }
  return db;
}

/** Where a home keeps a copy of its store secret, beside the index. */
export function secretCopyPath(home: string): string {
  return join(home, "store-secret");
}

/** The secret in a copy file, or null when there is none or it is not one. */
export function readSecretCopy(path: string): string | null {
  try {
    const s = readFileSync(path, "utf8").trim();
    return /^[0-9a-f]{64}$/.test(s) ? s : null;
  } catch {
    return null;
  }
}

/**
 * The per-store secret that keys blob ids; created once, shared by every process on the store.
 * With `copyPath`, a copy is kept there: were the index damaged beyond reading, the blob files
 * could otherwise never again be told by their ids (`spillway doctor --repair` needs it), and a
 * new index made in its place takes the secret from the copy.
 */
export function storeSecret(db: Db, copyPath?: string): Buffer {
  const copy = copyPath ? readSecretCopy(copyPath) : null;
  const created =
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('id_secret', ?)").run(copy ?? randomBytes(32).toString("hex")).changes > 0;
  // Into the main file at once: were it only in the WAL and the WAL lost, every blob file would
  // stop matching its id and nothing could be recovered from the files.
  if (created) db.pragma("wal_checkpoint(PASSIVE)");
  const row = db.prepare("SELECT value FROM meta WHERE key = 'id_secret'").get() as { value: string };
  if (copyPath && copy !== row.value) writeFileAtomic(copyPath, row.value + "\n");
  return Buffer.from(row.value, "hex");
}

/**
 * Why SQLite could not open an index in a folder it cannot write (a read-only mount or a folder
 * of another user's): its own words are "unable to open database file" or "readonly database".
 */
function readOnlyHint(path: string): string {
  try {
    accessSync(dirname(path), constants.W_OK);
    return "";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return ` (its folder cannot be written: ${code === "EROFS" ? "a read-only file system" : (code ?? "no permission")}; Spillway writes its index, its WAL and results there: point --home or SPILLWAY_HOME at a writable folder)`;
  }
}
