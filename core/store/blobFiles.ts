/** Blob files on disk: sharded folders, atomic writes, and the encodings that keep JS strings exact. */
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  type BigIntStats,
} from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, replaceFile, safeUnlink, stageFileAtomic, TEMP_SUFFIX, type StagedFile } from "../fs/fsUtil";
import { SpareTemp } from "../fs/spareTemp";
import { makeShardsLater } from "./shardFolders";
import { BLOB_ID_PATTERN } from "../vocabulary";

/**
 * How a blob's text is stored. `utf8` for well-formed strings; `utf16le` for strings with lone
 * surrogates, which UTF-8 cannot carry, so that every result comes back exactly as it was given.
 */
export type BlobEncoding = "utf8" | "utf16le";

export function encodingFor(text: string): BlobEncoding {
  return text.isWellFormed() ? "utf8" : "utf16le";
}

export function encodeText(text: string, encoding: BlobEncoding): Buffer {
  return Buffer.from(text, encoding);
}

/** Slices of a text, each encoded on its own; slices never split a surrogate pair. */
export function* encodedSlices(text: string, encoding: BlobEncoding, size = 1 << 20): Generator<Buffer> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield Buffer.from(text.slice(start, end), encoding);
    start = end;
  }
}

/** Byte length of `text` once encoded. */
export function encodedLength(text: string, encoding: BlobEncoding): number {
  return encoding === "utf16le" ? text.length * 2 : Buffer.byteLength(text, "utf8");
}

export function decodeText(buf: Buffer, encoding: BlobEncoding): string {
  return encoding === "utf16le" ? buf.toString("utf16le") : buf.toString("utf8");
}

/** Files kept beside a blob's, derived from its verified text and rebuilt when missing: never its content's only copy. */
export const AUX_KINDS = ["lines", "outline"] as const;
export type AuxKind = (typeof AUX_KINDS)[number];

/** The folder of blob files, sharded by the first two hex characters of the id. */
export class BlobFiles {
  /** Shard folders known to exist (a folder removed by hand since is made again by the rename, see stageFileAtomic). */
  private readonly shards = new Set<string>();
  /** The temp file the next early write (a rescue's) takes instead of creating one. */
  private readonly spare: SpareTemp;
  /** Whether the missing shard folders were queued to be made (at the first early write, once). */
  private shardsQueued = false;
  private closed = false;

  constructor(readonly root: string) {
    ensurePrivateDir(root);
    this.spare = new SpareTemp(root);
  }

  /** Closes and removes the spare temp file. */
  close(): void {
    this.closed = true;
    this.spare.dispose();
  }

  pathOf(id: string): string {
    return join(this.root, id.slice(0, 2), id);
  }

  write(id: string, data: Buffer | Iterable<Buffer>): void {
    this.stage(id, data, false).commit();
  }

  /** The blob's file written under a temp name, flushing in the background with `early`; in place once committed (stageFileAtomic). */
  stage(id: string, data: Buffer | Iterable<Buffer>, early = true): StagedFile {
    const dir = join(this.root, id.slice(0, 2));
    if (!this.shards.has(dir)) {
      if (!existsSync(dir)) ensurePrivateDir(dir);
      this.shards.add(dir);
    }
    if (early && !this.shardsQueued) {
      this.shardsQueued = true;
      makeShardsLater(
        this.root,
        (made) => this.shards.add(made),
        () => this.closed,
      );
    }
    try {
      return stageFileAtomic(this.pathOf(id), data, early, early ? this.spare.take() : undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      // The folder was removed by hand since it was made (or seen): made again, once.
      ensurePrivateDir(dir);
      return stageFileAtomic(this.pathOf(id), data, early);
    }
  }

  read(id: string): Buffer | null {
    try {
      return readFileSync(this.pathOf(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  /** An open read descriptor of the blob's file; null when there is no file. */
  private openOrNull(id: string): number | null {
    try {
      return openSync(this.pathOf(id), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  /**
   * The whole file and a signature of the file it was read from (inode, size, change times), so
   * a caller can tell later, by a stat alone, whether it is still the same unmodified file.
   */
  readWithSignature(id: string): { data: Buffer; signature: string } | null {
    const fd = this.openOrNull(id);
    if (fd === null) return null;
    try {
      const st = fstatSync(fd, { bigint: true });
      const data = Buffer.allocUnsafe(Number(st.size));
      let off = 0;
      while (off < data.length) {
        const n = readSync(fd, data, off, data.length - off, off);
        if (n === 0) break;
        off += n;
      }
      return { data: off === data.length ? data : data.subarray(0, off), signature: signatureOf(st) };
    } finally {
      closeSync(fd);
    }
  }

  /** The signature (see readWithSignature) of the file now at the blob's path; null when there is none. */
  signature(id: string): string | null {
    try {
      return signatureOf(statSync(this.pathOf(id), { bigint: true }));
    } catch {
      return null;
    }
  }

  /** `length` bytes from `start` (fewer at the end), and the file's size; null when there is no file. */
  readAt(id: string, start: number, length: number): { data: Buffer; size: number } | null {
    const fd = this.openOrNull(id);
    if (fd === null) return null;
    try {
      const size = fstatSync(fd).size;
      const want = Math.max(0, Math.min(length, size - start));
      const data = Buffer.allocUnsafe(want);
      let off = 0;
      while (off < want) {
        const n = readSync(fd, data, off, want - off, start + off);
        if (n === 0) break;
        off += n;
      }
      return { data: data.subarray(0, off), size };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Bytes of the blob's file where `plan` says, given the file's size and signature (see
   * readWithSignature) as found once it is open; null when there is no file.
   */
  readPlanned<T extends { start: number; length: number }>(
    id: string,
    plan: (size: number, signature: string) => T,
  ): { data: Buffer; size: number; signature: string; plan: T } | null {
    const fd = this.openOrNull(id);
    if (fd === null) return null;
    try {
      const st = fstatSync(fd, { bigint: true });
      const size = Number(st.size);
      const signature = signatureOf(st);
      const p = plan(size, signature);
      const want = Math.max(0, Math.min(p.length, size - p.start));
      const data = Buffer.allocUnsafe(want);
      let off = 0;
      while (off < want) {
        const n = readSync(fd, data, off, want - off, p.start + off);
        if (n === 0) break;
        off += n;
      }
      return { data: data.subarray(0, off), size, signature, plan: p };
    } finally {
      closeSync(fd);
    }
  }

  /** Moves the blob's file to `dest` (same filesystem); false when there was none. */
  moveOut(id: string, dest: string): boolean {
    try {
      renameSync(this.pathOf(id), dest);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  /** Moves a file (same filesystem) in as the blob's file, replacing any. */
  moveIn(id: string, src: string): void {
    const dir = join(this.root, id.slice(0, 2));
    if (!existsSync(dir)) ensurePrivateDir(dir);
    renameSync(src, this.pathOf(id));
  }

  /** The path of a file kept beside the blob's (its line index, its outline): `<id>.<ext>`. */
  auxPath(id: string, ext: AuxKind): string {
    return `${this.pathOf(id)}.${ext}`;
  }

  /** A file kept beside the blob's; null when there is none. */
  readAux(id: string, ext: AuxKind): Buffer | null {
    try {
      return readFileSync(this.auxPath(id, ext));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  /**
   * Writes a file beside the blob's, atomically, without waiting for the disk: each kind checks
   * what it reads (a checksum, a parse) and is built again when a crash left it empty or torn.
   * Returns its size.
   */
  writeAux(id: string, ext: AuxKind, data: Buffer): number {
    const dir = join(this.root, id.slice(0, 2));
    if (!existsSync(dir)) ensurePrivateDir(dir);
    replaceFile(this.auxPath(id, ext), data);
    return data.length;
  }

  /** Size of a file kept beside the blob's; 0 when there is none. */
  auxSize(id: string, ext: AuxKind): number {
    try {
      return statSync(this.auxPath(id, ext)).size;
    } catch {
      return 0;
    }
  }

  /** Removes every file kept beside the blob's. */
  removeAux(id: string): void {
    for (const ext of AUX_KINDS) safeUnlink(this.auxPath(id, ext));
  }

  exists(id: string): boolean {
    return existsSync(this.pathOf(id));
  }

  /** The size of the blob's file in bytes, or null when it has none. */
  size(id: string): number | null {
    return statSync(this.pathOf(id), { throwIfNoEntry: false })?.size ?? null;
  }

  remove(id: string): boolean {
    return safeUnlink(this.pathOf(id));
  }

  /** Every blob id that has a file, and temp files left by interrupted writes. */
  scan(): { ids: string[]; temps: { path: string; mtimeMs: number }[]; aux: { id: string; path: string }[] } {
    const ids: string[] = [];
    const temps: { path: string; mtimeMs: number }[] = [];
    const aux: { id: string; path: string }[] = [];
    for (const shard of safeReaddir(this.root)) {
      if (shard.endsWith(TEMP_SUFFIX)) {
        // A spare temp file (SpareTemp) left by a process that was killed.
        const path = join(this.root, shard);
        try {
          temps.push({ path, mtimeMs: statSync(path).mtimeMs });
        } catch {
          /* used or removed meanwhile by its process */
        }
        continue;
      }
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      const dir = join(this.root, shard);
      for (const name of safeReaddir(dir)) {
        if (name.endsWith(TEMP_SUFFIX)) {
          const path = join(dir, name);
          try {
            temps.push({ path, mtimeMs: statSync(path).mtimeMs });
          } catch {
            /* removed meanwhile by another process */
          }
        } else if (BLOB_ID_PATTERN.test(name)) ids.push(name);
        else {
          const dot = name.indexOf(".");
          const id = name.slice(0, dot);
          if (dot > 0 && BLOB_ID_PATTERN.test(id) && (AUX_KINDS as readonly string[]).includes(name.slice(dot + 1))) {
            aux.push({ id, path: join(dir, name) });
          }
        }
      }
    }
    return { ids, temps, aux };
  }
}

function signatureOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
