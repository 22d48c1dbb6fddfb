/** A new blob: its bytes on disk (sealed for a credential, else as encoded, with chunk checksums past one chunk) and its index row. */
import { encodedSlices, encodeText } from "./blobFiles";
import type { Db } from "./db";
import type { BlobRow } from "./rows";
import { stmt } from "./statements";
import type { PreparedText } from "./blobStore";
import { CHUNK_BYTES, type ContentHasher } from "./integrity";
import type { KeyRing } from "./keyRing";

export interface ContentWriter {
  keys: KeyRing;
  hasher: ContentHasher;
  /** Writes the file (the store stages it for its transaction). */
  write(data: Buffer | Iterable<Buffer>): void;
}

/** Writes the content of `prepared`; returns the file's size and the checksums its row keeps (null when encrypted or one chunk). */
export function writeContent(w: ContentWriter, prepared: PreparedText, encrypt: boolean): { bytes: number; chunkSums: Buffer | null } {
  const { text, encoding, encoded: kept } = prepared;
  if (encrypt) {
    // AES-GCM here takes one buffer; credential results are rarely large, so only they are encoded whole.
    const data = w.keys.encrypt(kept ?? encodeText(text, encoding));
    w.write(data);
    return { bytes: data.length, chunkSums: null };
  }
  const slices = kept ? [kept] : encodedSlices(text, encoding);
  if (prepared.bytes <= CHUNK_BYTES) {
    // One chunk: its checksum would cover what the id covers, and a range read of it reads it whole.
    w.write(slices);
    return { bytes: prepared.bytes, chunkSums: null };
  }
  const sums = w.hasher.chunker();
  w.write(tap(slices, (b) => sums.update(b)));
  return { bytes: prepared.bytes, chunkSums: sums.digest() };
}

function* tap(slices: Iterable<Buffer>, each: (b: Buffer) => void): Generator<Buffer> {
  for (const b of slices) {
    each(b);
    yield b;
  }
}

/** What a new (or revived, or rewritten) live blob's row holds; the rest starts afresh (no pin, no fetch, no sidecar). */
export type LiveRow = Pick<
  BlobRow,
  "id" | "chars" | "bytes" | "lines" | "encoding" | "kind" | "shape" | "tool" | "server" | "session_id" | "label" | "encrypted"
> & { now: number; expires: number; sums: Buffer | null };

/** Inserts the row, or makes an existing one (a tombstone, a damaged copy) this live blob afresh. */
export function insertLiveRow(db: Db, row: LiveRow): void {
  stmt(
    db,
    `INSERT INTO blobs (id, chars, bytes, lines, encoding, kind, shape, tool, server, session_id, label, encrypted,
         pinned, created_at, last_access_at, expires_at, fetch_count, sidecar_bytes, chunk_sums)
       VALUES (@id, @chars, @bytes, @lines, @encoding, @kind, @shape, @tool, @server, @session_id, @label, @encrypted,
         0, @now, @now, @expires, 0, 0, @sums)
       ON CONFLICT (id) DO UPDATE SET bytes = @bytes, encoding = @encoding, label = @label, encrypted = @encrypted,
         tool = @tool, server = @server, session_id = @session_id, created_at = @now, last_access_at = @now,
         expires_at = @expires, fetch_count = 0, sidecar_bytes = 0, chunk_sums = @sums, tombstoned_at = NULL,
         tombstone_expires_at = NULL, tombstone_reason = NULL`,
  ).run(row);
}
