/** A new blob's bytes on disk: sealed for a credential, else written as encoded, with chunk checksums past one chunk. */
import { encodedSlices, encodeText } from "./blobFiles";
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
