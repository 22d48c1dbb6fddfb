/**
 * Where the at-rest encryption key lives. The Electron app supplies a keychain-backed provider
 * (safeStorage); everywhere else the key is `$SPILLWAY_HOME/key`, readable by the owner only.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { ErrorCode, SpillwayError } from "../errors";

/** Source of the 32-byte key. `kind` names it in logs and the inspector ("file", "keychain"). */
export interface KeyProvider {
  readonly kind: string;
  /** The key, or null when none was created yet. */
  loadKey(): Buffer | null;
  /** Generates, persists and returns a new key. */
  createKey(): Buffer;
  /** Persists `next` in place of the current key (rotation, after blobs were re-encrypted). */
  replaceKey(next: Buffer): void;
}

const KEY_BYTES = 32;
const KEY_FILE = "key";

/** A provider backed by `$home/key` (base64 text, mode 0600, written atomically). */
export function fileKeyProvider(home: string): KeyProvider {
  const path = join(home, KEY_FILE);
  return {
    kind: "file",
    loadKey: () => readKeyFile(path),
    createKey() {
      const key = randomBytes(KEY_BYTES);
      ensureHome(home);
      const tmp = writeTemp(home, key);
      try {
        // link() fails if the name exists: when two processes (the app and an agent's
        // `spillway mcp`) create a key at once, one wins and the other adopts its key rather
        // than overwriting it and orphaning blobs already encrypted with it.
        linkSync(tmp, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw ioError(path, "create", err);
        const existing = readKeyFile(path);
        if (existing) return existing;
        throw ioError(path, "create", err);
      } finally {
        safeUnlink(tmp);
      }
      syncDir(home);
      return key;
    },
    replaceKey(next) {
      if (!Buffer.isBuffer(next) || next.length !== KEY_BYTES) {
        throw new SpillwayError(ErrorCode.Internal, `cannot replace the key in ${path}: a key must be ${KEY_BYTES} bytes.`);
      }
      ensureHome(home);
      const tmp = writeTemp(home, next);
      try {
        renameSync(tmp, path);
      } catch (err) {
        safeUnlink(tmp);
        throw ioError(path, "replace", err);
      }
      syncDir(home);
    },
  };
}

function readKeyFile(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, "latin1");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new SpillwayError(ErrorCode.CannotDecrypt, `cannot read the key file ${path}: ${(err as Error).message}.`, { cause: err });
  }
  const b64 = text.trim();
  const key = Buffer.from(b64, "base64");
  if (key.length !== KEY_BYTES || key.toString("base64") !== b64) {
    throw new SpillwayError(
      ErrorCode.CannotDecrypt,
      `the key file ${path} is corrupt: it should hold ${KEY_BYTES} bytes in base64 on one line, ` +
        `but holds ${text.length} characters that do not decode to that. Restore it from a backup; ` +
        `blobs encrypted with the lost key cannot be read.`,
    );
  }
  tightenMode(path);
  return key;
}

/** A fully written, fsynced temp file beside the key (same filesystem, so rename/link is atomic). */
function writeTemp(home: string, key: Buffer): string {
  const tmp = join(home, `.${KEY_FILE}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "wx", 0o600);
    writeSync(fd, `${key.toString("base64")}\n`);
    fsyncSync(fd);
  } catch (err) {
    safeUnlink(tmp);
    throw ioError(tmp, "write", err);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return tmp;
}

function ensureHome(home: string): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 }); // an existing directory keeps its mode
  } catch (err) {
    throw ioError(home, "create the directory for", err);
  }
}

/** A key file someone made group- or world-readable is put back to owner-only. */
function tightenMode(path: string): void {
  if (process.platform === "win32") return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Best effort: reading the key must not fail because its mode could not be changed.
  }
}

/** fsync the directory so the new name survives a crash (not supported on every platform). */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows cannot open directories; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function safeUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function ioError(path: string, action: string, err: unknown): SpillwayError {
  return new SpillwayError(ErrorCode.StoreIo, `cannot ${action} the key file ${path}: ${(err as Error).message}.`, { cause: err });
}
