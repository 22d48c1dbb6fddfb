/** File-system habits of the store: private folders and files, atomic writes. */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync, chmodSync, statSync } from "node:fs";
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
  const tmp = join(dirname(path), `.${process.pid}-${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
  const fd = openSync(tmp, "wx", FILE_MODE);
  try {
    // An iterable of slices is written slice by slice, so a 50 MB result is never encoded whole.
    const parts: Iterable<Buffer> = typeof data === "string" ? [Buffer.from(data, "utf8")] : Buffer.isBuffer(data) ? [data] : data;
    for (const buf of parts) {
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    safeUnlink(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    safeUnlink(tmp);
    throw err;
  }
  fsyncDir(dirname(path));
}

/** Makes a rename durable; not every platform allows opening a folder, so failures are ignored. */
function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
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
