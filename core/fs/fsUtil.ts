/** File-system habits of the store: private folders and files, atomic writes. */
import {
  close,
  closeSync,
  existsSync,
  fsync,
  fsyncSync,
  mkdirSync,
  open,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
  chmodSync,
  statSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Creates a folder (and its parents) readable by the owner only. */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: DIR_MODE });
  // mkdir's mode is masked by umask and ignored for folders that already exist.
  if ((statSync(path).mode & 0o777) !== DIR_MODE) chmodSync(path, DIR_MODE);
}

/** Temp files carry this suffix so an interrupted write is recognisable and never read as a blob. */
export const TEMP_SUFFIX = ".tmp";

/**
 * Writes `data` to `path` atomically: a uniquely named temp file in the same folder, fsync, then
 * rename. A reader sees the old file or the complete new one, never a partial write.
 */
export function writeFileAtomic(path: string, data: Buffer | string | Iterable<Buffer>): void {
  stageFileAtomic(path, data, false).commit();
}

/** A file written under a temp name beside its path, not yet renamed into place. */
export interface StagedFile {
  /** fsync, then rename into place: from then on the file is complete under its name, or the old one is. */
  commit(): void;
  /** Removes the temp file. */
  abort(): void;
}

/** A new, empty temp file, open for writing: its descriptor and path (see SpareTemp). */
export interface OpenTemp {
  fd: number;
  path: string;
}

/** A unique temp file name in `dir`. */
export function tempPath(dir: string): string {
  return join(dir, `.${process.pid}-${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
}

/**
 * Writes `data` to a temp file beside `path` (or to `temp`, an empty temp file opened ahead on
 * the same filesystem); `commit` makes it the file at `path` as writeFileAtomic does. With
 * `early`, the disk starts flushing the temp file at once on libuv's thread pool, so the flush
 * runs while the caller does its remaining work (a rescue's excerpt and ledger rows) and
 * `commit`'s own fsync only waits for what is left of it.
 */
export function stageFileAtomic(path: string, data: Buffer | string | Iterable<Buffer>, early = true, temp?: OpenTemp): StagedFile {
  const tmp = temp?.path ?? tempPath(dirname(path));
  const fd = temp?.fd ?? openSync(tmp, "wx", FILE_MODE);
  let flush: EarlyFlush | null = null;
  // The pool's fsync holds the descriptor until it returns: closed only then (never reused under it).
  const closeFd = () => (flush ? flush.close() : closeSync(fd));
  try {
    // An iterable of slices is written slice by slice, so a 50 MB result is never encoded whole.
    const parts: Iterable<Buffer> = typeof data === "string" ? [Buffer.from(data, "utf8")] : Buffer.isBuffer(data) ? [data] : data;
    for (const buf of parts) {
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    }
    if (early) flush = flushEarly(fd);
  } catch (err) {
    closeFd();
    safeUnlink(tmp);
    throw err;
  }
  let done = false;
  return {
    commit() {
      if (done) return;
      done = true;
      try {
        fsyncSync(fd);
      } catch (err) {
        closeFd();
        safeUnlink(tmp);
        throw err;
      }
      closeFd();
      try {
        renameInto(tmp, path);
      } catch (err) {
        safeUnlink(tmp);
        throw err;
      }
      flushDirLater(dirname(path));
    },
    abort() {
      if (done) return;
      done = true;
      closeFd();
      safeUnlink(tmp);
    },
  };
}

/**
 * Replaces the file at `path` atomically (temp file, then rename) without waiting for the disk:
 * for files derived from others and checked when read, which a power loss may leave missing,
 * empty or old, and which are then built again. Their fsync blocked the thread for 1–20 ms a
 * file on this kind of VM, behind a rescue (its line index) and in a first outline's answer.
 */
export function replaceFile(path: string, data: Buffer): void {
  const tmp = tempPath(dirname(path));
  const fd = openSync(tmp, "wx", FILE_MODE);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
  } catch (err) {
    closeSync(fd);
    safeUnlink(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameInto(tmp, path);
  } catch (err) {
    safeUnlink(tmp);
    throw err;
  }
}

/** Renames `tmp` to `path`, making `path`'s folder again if it is gone (removed by hand since it was made). */
function renameInto(tmp: string, path: string): void {
  try {
    renameSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT" || !existsSync(tmp)) throw err;
    ensurePrivateDir(dirname(path));
    renameSync(tmp, path);
  }
}

/** Flushes that are still running on the thread pool. */
let inflight = 0;
let settledWaiters: (() => void)[] = [];
const started = () => inflight++;
function finished(): void {
  if (--inflight > 0) return;
  const waiters = settledWaiters;
  settledWaiters = [];
  for (const w of waiters) w();
}

/**
 * Counts `run` among the background work `backgroundFlushes()` waits for, until it calls `done`
 * (at most once counted): the engine's idle and close then wait for it too.
 */
export function inBackground(run: (done: () => void) => void): void {
  started();
  let over = false;
  run(() => {
    if (over) return;
    over = true;
    finished();
  });
}

/** Resolves once every flush this process started in the background (early temp files, folders) is done. */
export function backgroundFlushes(): Promise<void> {
  return inflight === 0 ? Promise.resolve() : new Promise((resolve) => settledWaiters.push(resolve));
}

/** An fsync running on the pool; `close` closes its descriptor now, or once it returns. */
interface EarlyFlush {
  close(): void;
}

/**
 * One fsync of the temp file on the pool, on the writer's own descriptor: one request, which
 * runs even while the main thread is busy (the point), and no second open of the file on the
 * main thread. The descriptor stays open until the request returns, so the pool never flushes
 * a number the process has since reused; errors are left to commit's own fsync.
 */
function flushEarly(fd: number): EarlyFlush {
  let running = true;
  let closeWhenDone = false;
  started();
  fsync(fd, () => {
    running = false;
    if (closeWhenDone) close(fd, finished);
    else finished();
  });
  return {
    close() {
      if (running) closeWhenDone = true;
      else closeSync(fd);
    },
  };
}

/** Folders whose fsync is queued and not yet begun: renames into them meanwhile are covered by it. */
const dirsQueued = new Set<string>();

/**
 * Makes renames into `dir` durable, after the fact. The file itself was fsynced before its
 * rename, so a crash before this runs can lose the name, never leave a partial file under it;
 * the index (SQLite in WAL with synchronous=NORMAL) gives a power loss the same window for its
 * last commits. Not every platform allows opening a folder, so failures are ignored.
 */
function flushDirLater(dir: string): void {
  if (dirsQueued.has(dir)) return;
  dirsQueued.add(dir);
  started();
  open(dir, "r", (err, fd) => {
    dirsQueued.delete(dir);
    if (err) return finished();
    fsync(fd, () => close(fd, finished));
  });
}

/** Unlinks a file; a missing file is not an error. */
export function safeUnlink(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}
