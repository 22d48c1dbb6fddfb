/**
 * Content integrity of blob files. A blob's id is a keyed hash of its encoded content, so a full
 * read is checked against the id itself. Plain files also carry per-chunk checksums (in the
 * index, column `chunk_sums`), so a reader of a byte range hashes only the chunks it reads
 * instead of the whole file.
 */
import { createHmac } from "node:crypto";
import type { BlobEncoding } from "./blobFiles";

/** Bytes per checksummed chunk: a range read of a few KB hashes at most two of these. */
export const CHUNK_BYTES = 1 << 20;
/** Bytes kept of each chunk's HMAC-SHA256: 128 bits, ample against accidental damage and forgery alike. */
const SUM_BYTES = 16;
/** `chunk_sums` layout: chunk size (u32 BE), then one digest per chunk. */
const HEADER_BYTES = 4;

/** Hashes content with the store's secret: blob ids and chunk checksums. */
export class ContentHasher {
  constructor(private readonly secret: Buffer) {}

  /** The id of content stored as `encoding`, hashed slice by slice. */
  id(encoding: BlobEncoding, slices: Iterable<Buffer>): string {
    const h = createHmac("sha256", this.secret).update(encoding).update("\0");
    for (const s of slices) h.update(s);
    return h.digest("hex").slice(0, 12);
  }

  /** True when `bytes` are the content `id` names, in either encoding; the encoding that matched. */
  matchId(id: string, bytes: Buffer): BlobEncoding | null {
    if (this.id("utf8", [bytes]) === id) return "utf8";
    if (bytes.length % 2 === 0 && this.id("utf16le", [bytes]) === id) return "utf16le";
    return null;
  }

  private chunkSum(chunk: Buffer): Buffer {
    // A "chunk" prefix keeps these digests apart from ids computed with the same secret.
    return createHmac("sha256", this.secret).update("chunk\0").update(chunk).digest().subarray(0, SUM_BYTES);
  }

  /** Chunk checksums of a file, fed the bytes in any slicing (they are re-cut at chunk boundaries). */
  chunker(chunkBytes = CHUNK_BYTES): { update(buf: Buffer): void; digest(): Buffer } {
    const sums: Buffer[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = () => {
      sums.push(this.chunkSum(pending.length === 1 ? pending[0]! : Buffer.concat(pending)));
      pending = [];
      pendingBytes = 0;
    };
    return {
      update(buf: Buffer) {
        let off = 0;
        while (off < buf.length) {
          const take = Math.min(chunkBytes - pendingBytes, buf.length - off);
          pending.push(buf.subarray(off, off + take));
          pendingBytes += take;
          off += take;
          if (pendingBytes === chunkBytes) flush();
        }
      },
      digest() {
        if (pendingBytes > 0 || sums.length === 0) flush();
        const header = Buffer.alloc(HEADER_BYTES);
        header.writeUInt32BE(chunkBytes);
        return Buffer.concat([header, ...sums]);
      },
    };
  }

  /** Chunk checksums of a whole buffer. */
  chunkSums(buf: Buffer, chunkBytes = CHUNK_BYTES): Buffer {
    const c = this.chunker(chunkBytes);
    c.update(buf);
    return c.digest();
  }

  /**
   * Checks chunks of a file against its checksums. `bytes` starts at chunk `first` and holds
   * whole chunks (the last may be the file's short tail). Returns the first bad chunk, or -1.
   */
  badChunk(sums: ChunkSums, first: number, bytes: Buffer): number {
    const n = Math.max(1, Math.ceil(bytes.length / sums.chunkBytes));
    for (let i = 0; i < n; i++) {
      const want = sums.sum(first + i);
      const chunk = bytes.subarray(i * sums.chunkBytes, (i + 1) * sums.chunkBytes);
      if (!want || !this.chunkSum(chunk).equals(want)) return first + i;
    }
    return -1;
  }
}

/** A parsed `chunk_sums` value. */
export interface ChunkSums {
  chunkBytes: number;
  count: number;
  sum(index: number): Buffer | null;
}

/** Parses a `chunk_sums` column; null when absent or malformed (the reader then checks the whole file). */
export function parseChunkSums(raw: Buffer | null | undefined): ChunkSums | null {
  if (!raw || raw.length < HEADER_BYTES + SUM_BYTES || (raw.length - HEADER_BYTES) % SUM_BYTES !== 0) return null;
  const chunkBytes = raw.readUInt32BE(0);
  if (chunkBytes === 0) return null;
  const count = (raw.length - HEADER_BYTES) / SUM_BYTES;
  return {
    chunkBytes,
    count,
    sum: (i) => (i >= 0 && i < count ? raw.subarray(HEADER_BYTES + i * SUM_BYTES, HEADER_BYTES + (i + 1) * SUM_BYTES) : null),
  };
}

/** Why a stored blob cannot be served. */
export type BlobProblem = "missing" | "corrupt" | "undecryptable";

/** The outcome of checking one blob file. */
export type IntegrityResult = { ok: true; bytes: number } | { ok: false; problem: BlobProblem; detail: string };
