/** A new blob: its bytes on disk (sealed for a credential, else as encoded, with chunk checksums past one chunk) and its index row. */
import { encodedSlices, encodeText } from "./blobFiles";
import type { Db } from "./db";
import type { BlobRow } from "./rows";
import { stmt } from "./statements";
import type { PreparedText } from "./blobStore";
import { CHUNK_BYTES, type ContentHasher } from "./integrity";
import type { KeyRing } from "./keyRing";
import type { StagedFile } from "../fs/fsUtil";

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

/** A file begun ahead of its put (BlobStore.writeAhead): sealed or not, and what writeContent gave for it. */
export interface Ahead {
  file: StagedFile;
  encrypt: boolean;
  bytes: number;
  chunkSums: Buffer | null;
}

/** Files begun ahead of their put in one transaction, by id, until the put claims its own; the rest are removed at the end. */
export class AheadWrites {
  private readonly byId = new Map<string, Ahead>();

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Writes `prepared` (sealed when `encrypt`) to a file `stage` begins, kept for the put of its id. */
  begin(
    w: Omit<ContentWriter, "write"> & { stage(data: Buffer | Iterable<Buffer>): StagedFile },
    prepared: PreparedText,
    encrypt: boolean,
  ): void {
    const files: StagedFile[] = [];
    try {
      const content = writeContent({ ...w, write: (data) => files.push(w.stage(data)) }, prepared, encrypt);
      this.byId.set(prepared.id, { file: files[0]!, encrypt, ...content });
    } catch (err) {
      for (const f of files) f.abort();
      throw err;
    }
  }

  /** The file begun for `id`, if it was sealed as the put now decides (else it is removed, and the put writes its own). */
  claim(id: string, encrypt: boolean): Ahead | undefined {
    const a = this.byId.get(id);
    this.byId.delete(id);
    if (a && a.encrypt !== encrypt) a.file.abort();
    return a && a.encrypt === encrypt ? a : undefined;
  }

  abortAll(): void {
    for (const a of this.byId.values()) a.file.abort();
    this.byId.clear();
  }
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
