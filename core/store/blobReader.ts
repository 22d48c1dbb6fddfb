/**
 * Verified reads of blob files: nothing leaves the store unless it matches its id (whole reads)
 * or its chunk checksums (range reads). A damaged or undecryptable file is an error, never data.
 */
import { ErrorCode, SpillwayError, describeError } from "../errors";
import { decodeText, type BlobEncoding, type BlobFiles } from "./blobFiles";
import { parseChunkSums, type ContentHasher, type IntegrityResult } from "./integrity";
import type { KeyRing } from "./keyRing";
import type { BlobRow } from "./rows";

/** Signatures of files verified whole, kept per process; past this many the oldest are forgotten. */
const VERIFIED_MAX = 20_000;
/** Blobs whose verified chunks are remembered; past this many the least recently read are forgotten. */
const CHUNKS_OK_MAX = 2_000;

/** A verified byte range of a blob's stored (plaintext) bytes. */
export interface BlobRange {
  bytes: Buffer;
  /** Where `bytes` starts in the blob's bytes. */
  start: number;
  /** The blob's size in bytes, once decoded from storage (plaintext). */
  totalBytes: number;
  encoding: BlobEncoding;
}

export class BlobReader {
  /** id → signature of the file last verified whole (see BlobFiles.readWithSignature). */
  private readonly verified = new Map<string, string>();
  /** id → the signature of its file and the chunks of it verified, for range reads. */
  private readonly chunksOk = new Map<string, { signature: string; chunks: Set<number> }>();

  constructor(
    private readonly files: BlobFiles,
    private readonly keys: KeyRing,
    private readonly hasher: ContentHasher,
  ) {}

  /** The row's plaintext bytes, checked against its id; null when the file is gone. Throws Corrupt or CannotDecrypt. */
  bytes(r: BlobRow): Buffer | null {
    const f = this.files.readWithSignature(r.id);
    if (!f) return null;
    if (f.data.length !== r.bytes) {
      throw new SpillwayError(ErrorCode.Corrupt, `${r.id} is damaged: its file holds ${f.data.length} bytes where ${r.bytes} were stored.`);
    }
    const plain = r.encrypted ? this.keys.decrypt(f.data, r.id) : f.data;
    if (this.hasher.id(r.encoding, [plain]) !== r.id) {
      throw new SpillwayError(ErrorCode.Corrupt, `${r.id} is damaged: its content no longer matches its id.`);
    }
    this.remember(r.id, f.signature);
    return plain;
  }

  /** The row's exact text, verified; null when the file is gone. */
  text(r: BlobRow): string | null {
    const plain = this.bytes(r);
    return plain === null ? null : decodeText(plain, r.encoding);
  }

  /**
   * `length` bytes of the blob from byte `start`, verified by the chunks that hold them only (a
   * few KB of a 50 MB blob hash one or two 1 MiB chunks, once per process while the file is unchanged). Encrypted blobs, and blobs stored
   * before chunk checksums existed, are verified whole. Null when the file is gone.
   */
  range(r: BlobRow, start: number, length: number): BlobRange | null {
    const sums = r.encrypted ? null : parseChunkSums(r.chunk_sums);
    if (!sums) {
      const all = this.bytes(r);
      if (all === null) return null;
      const from = clamp(start, 0, all.length);
      return {
        bytes: all.subarray(from, clamp(from + length, from, all.length)),
        start: from,
        totalBytes: all.length,
        encoding: r.encoding,
      };
    }
    const from = clamp(start, 0, r.bytes);
    const end = clamp(from + Math.max(0, length), from, r.bytes);
    const first = Math.floor(from / sums.chunkBytes);
    const last = Math.max(first, Math.ceil(end / sums.chunkBytes) - 1);
    const readFrom = first * sums.chunkBytes;
    const known = this.chunksOk.get(r.id);
    // Chunks verified in this process, in the same unmodified file, are not read and hashed
    // again: then only the bytes asked for are read.
    const got = this.files.readPlanned(r.id, (_size, signature) => {
      let verified = known?.signature === signature;
      for (let c = first; verified && c <= last; c++) verified = known!.chunks.has(c);
      return verified
        ? { start: from, length: end - from, verified }
        : { start: readFrom, length: (last + 1) * sums.chunkBytes - readFrom, verified };
    });
    if (!got) return null;
    if (got.plan.verified && got.size === r.bytes) {
      return { bytes: got.data, start: from, totalBytes: r.bytes, encoding: r.encoding };
    }
    if (got.size !== r.bytes) {
      throw new SpillwayError(ErrorCode.Corrupt, `${r.id} is damaged: its file holds ${got.size} bytes where ${r.bytes} were stored.`);
    }
    if (Math.max(1, Math.ceil(r.bytes / sums.chunkBytes)) !== sums.count) {
      throw new SpillwayError(ErrorCode.Corrupt, `${r.id} is damaged: its chunk checksums do not fit its size.`);
    }
    const bad = this.hasher.badChunk(sums, first, got.data);
    if (bad >= 0) {
      const a = bad * sums.chunkBytes;
      throw new SpillwayError(
        ErrorCode.Corrupt,
        `${r.id} is damaged: bytes ${a}–${Math.min(r.bytes, a + sums.chunkBytes)} fail their checksum.`,
      );
    }
    this.rememberChunks(r.id, got.signature, first, last);
    return { bytes: got.data.subarray(from - readFrom, end - readFrom), start: from, totalBytes: r.bytes, encoding: r.encoding };
  }

  private rememberChunks(id: string, signature: string, first: number, last: number): void {
    let entry = this.chunksOk.get(id);
    if (entry?.signature !== signature) entry = { signature, chunks: new Set() };
    for (let c = first; c <= last; c++) entry.chunks.add(c);
    this.chunksOk.delete(id);
    this.chunksOk.set(id, entry);
    if (this.chunksOk.size > CHUNKS_OK_MAX) this.chunksOk.delete(this.chunksOk.keys().next().value!);
  }

  /** A full check of the row's file, for doctor and deep sweeps. */
  check(r: BlobRow): IntegrityResult {
    try {
      const plain = this.bytes(r);
      if (plain === null) return { ok: false, problem: "missing", detail: `${r.id} has no file` };
      return { ok: true, bytes: r.bytes };
    } catch (err) {
      const code = err instanceof SpillwayError ? err.code : null;
      const problem = code === ErrorCode.CannotDecrypt ? "undecryptable" : "corrupt";
      return { ok: false, problem, detail: describeError(err) };
    }
  }

  /**
   * Whether the file is intact, for the dedup path (a stub or a repeat store points at it). A
   * file already verified whole in this process and unchanged since (same inode, size and
   * change times) is not hashed again, so a repeat costs a stat, not a read.
   */
  intact(r: BlobRow): boolean {
    const sig = this.files.signature(r.id);
    if (sig === null) return false;
    if (this.verified.get(r.id) === sig) return true;
    return this.check(r).ok;
  }

  private remember(id: string, signature: string): void {
    this.verified.delete(id);
    this.verified.set(id, signature);
    if (this.verified.size > VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
  }
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(n)));
}
