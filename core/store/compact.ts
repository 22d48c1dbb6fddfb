/**
 * Gives the index's free space back to the disk (`spillway sweep --compact`). auto_vacuum is off,
 * so pages freed by expiry and detail pruning stay in the file for the next writes; and FTS5 keeps
 * the postings of deleted chunks in its segments until they merge. Compacting merges the search
 * index into one segment (FTS5's 'optimize', which drops those postings), rebuilds the file with
 * VACUUM and truncates the WAL.
 *
 * VACUUM writes a copy of the live pages to a temporary file (in SQLite's temp folder) and then
 * through the WAL (beside the index), so it needs about the live size free in each; it is checked
 * first. The merge and the rebuild are a transaction each: a process killed or short of room
 * halfway leaves the index whole (with its search index merged if that step was done). Other
 * processes on the store wait for it (their busy timeout): best run with Spillway stopped.
 */
import { accessSync, constants, statSync, statfsSync } from "node:fs";
import { dirname } from "node:path";
import { ErrorCode, SpillwayError } from "../errors";
import type { BlobStore } from "./blobStore";
import { indexPath } from "./db";
import { indexSize } from "./detailPrune";
import { otherStoreProcesses } from "./processes";

export interface CompactReport {
  /** The index file and its WAL on disk, before and after. */
  beforeBytes: number;
  afterBytes: number;
  /** Of `beforeBytes`, what was free pages. */
  freeBytes: number;
  ms: number;
  /**
   * Another process was reading the store, so the rebuilt index waits in the WAL (until that
   * process checkpoints or stops) and the file has not shrunk yet: who they are (`pid 12 (serve)`),
   * else null.
   */
  waitingOn: string | null;
}

/** Bytes free to this process on the filesystem holding `path`. */
export function freeBytesAt(path: string): number {
  const s = statfsSync(path);
  return s.bavail * s.bsize;
}

/** Needs per filesystem (the index's folder and the temp folder, once if they are the same). */
export function compactRoom(liveBytes: number, index: { dev: number; free: number }, temp: { dev: number; free: number }): string | null {
  // A margin for the WAL's frame headers and the FTS merge's own new segment.
  const need = Math.ceil(liveBytes * 1.1);
  const same = index.dev === temp.dev;
  if (same && index.free < 2 * need) return `about ${mb(2 * need)} free beside the index (a copy, then its WAL); ${mb(index.free)} is free`;
  if (!same && index.free < need) return `about ${mb(need)} free beside the index (its WAL); ${mb(index.free)} is free`;
  if (!same && temp.free < need) return `about ${mb(need)} free in the temp folder (a copy); ${mb(temp.free)} is free`;
  return null;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The bytes of the index at `path` and its WAL on disk. */
const onDisk = (path: string) => {
  let n = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      n += statSync(path + suffix).size;
    } catch {
      /* no WAL yet */
    }
  }
  return n;
};

/** The bytes a home's index and its WAL take on disk (doctor says so before reading them all). */
export const indexBytesOnDisk = (home: string): number => onDisk(indexPath(home));

/** Where SQLite puts a temporary file on Unix: the first writable of these (os.tmpdir() may differ). */
export function sqliteTempDir(env: NodeJS.ProcessEnv = process.env): string {
  for (const dir of [env.SQLITE_TMPDIR, env.TMPDIR, "/var/tmp", "/usr/tmp", "/tmp"]) {
    if (!dir) continue;
    try {
      if (!statSync(dir).isDirectory()) continue;
      accessSync(dir, constants.W_OK | constants.X_OK);
      return dir;
    } catch {
      /* the next one */
    }
  }
  return ".";
}

/** Compacts the store's index (see above); throws, changing nothing, when the disk is short of room. */
export function compactIndex(store: BlobStore, now: () => number = Date.now): CompactReport {
  const db = store.db;
  const path = indexPath(store.opts.home);
  const started = now();
  const beforeBytes = onDisk(path);
  const { bytes, freeBytes } = indexSize(db);
  const temp = sqliteTempDir();
  const problem = compactRoom(
    bytes - freeBytes,
    { dev: statSync(dirname(path)).dev, free: freeBytesAt(dirname(path)) },
    { dev: statSync(temp).dev, free: freeBytesAt(temp) },
  );
  if (problem)
    throw new SpillwayError(
      ErrorCode.StoreIo,
      `compacting the index needs ${problem} (SQLite's temp folder: ${temp}); nothing was changed`,
    );
  try {
    db.exec("INSERT INTO search_chunks(search_chunks) VALUES ('optimize')");
    db.exec("VACUUM");
  } catch (err) {
    if ((err as { code?: string }).code !== "SQLITE_FULL") throw err;
    throw new SpillwayError(
      ErrorCode.StoreIo,
      `compacting the index ran out of disk space (${mb(freeBytesAt(dirname(path)))} free beside the index, ${mb(freeBytesAt(temp))} in SQLite's temp folder ${temp}, set by SQLITE_TMPDIR or TMPDIR); the index is whole, not compacted`,
      { cause: err },
    );
  }
  const [cp] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
  const pending = cp !== undefined && (cp.busy !== 0 || cp.log !== cp.checkpointed);
  const others = pending ? otherStoreProcesses(store.opts.home).map((p) => `pid ${p.pid} (${p.what})`) : [];
  const waitingOn = pending ? (others.length > 0 ? others.join(", ") : "another process") : null;
  return { beforeBytes, afterBytes: onDisk(path), freeBytes, ms: now() - started, waitingOn };
}
