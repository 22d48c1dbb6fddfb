/**
 * Reads the head of a plain (unencrypted) blob without reading it whole: the first lines of a
 * 50 MB blob for a viewer's first page, or the first chars for a preview. Bytes come through a
 * verified range reader (BlobStore.readRange), so only the chunks read are checked, and a
 * damaged chunk is an error, never text on screen.
 */
import type { BlobRow } from "../rows";

const HEAD_CHUNK_BYTES = 1024 * 1024;
/** A line head gives up past this (lines that long are better read whole). */
const HEAD_READ_MAX_BYTES = 16 * 1024 * 1024;

/** Verified bytes of a blob from `start`, at most `length`; null when the blob is gone. */
export type ReadBytes = (start: number, length: number) => Buffer | null;

/** The first `lines` lines (each with its "\n") of a UTF-8 blob; null when there are fewer or they are too long. */
export function readHeadLines(read: ReadBytes, row: BlobRow, lines: number): string | null {
  if (row.encrypted || row.encoding !== "utf8") return null;
  const chunks: Buffer[] = [];
  let pos = 0;
  let newlines = 0;
  // "\n" is never part of a multi-byte UTF-8 sequence, so cutting after one never splits a char.
  for (;;) {
    const chunk = read(pos, HEAD_CHUNK_BYTES);
    if (!chunk || chunk.length === 0) return null;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      if (++newlines === lines) {
        chunks.push(chunk.subarray(0, i + 1));
        return Buffer.concat(chunks).toString("utf8");
      }
    }
    chunks.push(chunk);
    pos += chunk.length;
    if (pos > HEAD_READ_MAX_BYTES) return null;
  }
}

/** The first `maxChars` chars of a plain blob; null for an encrypted one. */
export function readHeadChars(read: ReadBytes, row: BlobRow, maxChars: number): string | null {
  if (row.encrypted) return null;
  const utf16 = row.encoding === "utf16le";
  // maxChars*4 bytes hold more than maxChars UTF-16 units, so a sequence cut at the end lies past the slice.
  const bytes = read(0, maxChars * (utf16 ? 2 : 4));
  return bytes === null ? null : bytes.toString(utf16 ? "utf16le" : "utf8").slice(0, maxChars);
}
