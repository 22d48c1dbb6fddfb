/**
 * The head of a large plain blob, read from its file without reading it whole: the first page
 * of a 50 MB blob in the inspector then costs about what it shows. Encrypted and UTF-16 blobs,
 * and small ones, are read whole by the caller instead (null here).
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { BlobStore } from "./blobStore";

/** Blobs from this size are opened from the head of their file first. */
const HEAD_READ_MIN_BYTES = 8 * 1024 * 1024;
const HEAD_CHUNK_BYTES = 1024 * 1024;
/** A head read gives up past this (lines that long are better read whole). */
const HEAD_READ_MAX_BYTES = 16 * 1024 * 1024;

/** The first `lines` lines of a large plain UTF-8 blob (each with its "\n"), or null (read it whole). */
export function readHeadLines(store: BlobStore, id: string, lines: number): string | null {
  const row = store.row(id);
  if (!row || row.tombstoned_at !== null || row.encrypted || row.encoding !== "utf8" || row.bytes < HEAD_READ_MIN_BYTES) return null;
  let fd: number | null = null;
  try {
    fd = openSync(store.files.pathOf(id), "r");
    const chunks: Buffer[] = [];
    let pos = 0;
    let newlines = 0;
    let cut = -1;
    // "\n" is never part of a multi-byte UTF-8 sequence, so cutting after one never splits a char.
    while (cut < 0) {
      const buf = Buffer.alloc(HEAD_CHUNK_BYTES);
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
        if (++newlines === lines) {
          cut = pos + i + 1;
          break;
        }
      }
      chunks.push(chunk);
      pos += n;
      if (pos > HEAD_READ_MAX_BYTES) return null;
    }
    if (cut < 0) return null;
    return Buffer.concat(chunks).subarray(0, cut).toString("utf8");
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * The first `maxChars` of a plain blob much larger than that, read from its head, with its total
 * length; null when the blob is encrypted or small (read it whole) or its file cannot be read.
 */
export function readHeadChars(store: BlobStore, id: string, maxChars: number): { text: string; totalChars: number } | null {
  const row = store.row(id);
  if (!row || row.tombstoned_at !== null || row.encrypted || row.chars <= maxChars * 4) return null;
  const unit = row.encoding === "utf16le" ? 2 : 4;
  const buf = Buffer.alloc(maxChars * unit);
  let fd: number | null = null;
  try {
    fd = openSync(store.files.pathOf(id), "r");
    const n = readSync(fd, buf, 0, buf.length, 0);
    // maxChars*4 bytes hold more than maxChars UTF-16 units, so a sequence cut at the end lies past the slice.
    const text = buf.subarray(0, n).toString(row.encoding === "utf16le" ? "utf16le" : "utf8");
    return { text: text.slice(0, maxChars), totalChars: row.chars };
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
