/**
 * Reads the head of a plain (unencrypted) blob file without reading it whole: the first lines
 * of a 50 MB blob for a viewer's first page, or the first chars for a preview.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { BlobRow } from "../rows";

const HEAD_CHUNK_BYTES = 1024 * 1024;
/** A line head gives up past this (lines that long are better read whole). */
const HEAD_READ_MAX_BYTES = 16 * 1024 * 1024;

function withFile<T>(path: string, fn: (fd: number) => T): T {
  const fd = openSync(path, "r");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

/** The first `lines` lines (each with its "\n") of a UTF-8 blob file; null when there are fewer or they are too long. */
export function readHeadLines(path: string, row: BlobRow, lines: number): string | null {
  if (row.encrypted || row.encoding !== "utf8") return null;
  return withFile(path, (fd) => {
    const chunks: Buffer[] = [];
    let pos = 0;
    let newlines = 0;
    // "\n" is never part of a multi-byte UTF-8 sequence, so cutting after one never splits a char.
    for (;;) {
      const buf = Buffer.alloc(HEAD_CHUNK_BYTES);
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return null;
      const chunk = buf.subarray(0, n);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
        if (++newlines === lines) {
          chunks.push(chunk.subarray(0, i + 1));
          return Buffer.concat(chunks).toString("utf8");
        }
      }
      chunks.push(chunk);
      pos += n;
      if (pos > HEAD_READ_MAX_BYTES) return null;
    }
  });
}

/** The first `maxChars` chars of a plain blob file; null for an encrypted one. */
export function readHeadChars(path: string, row: BlobRow, maxChars: number): string | null {
  if (row.encrypted) return null;
  const utf16 = row.encoding === "utf16le";
  // maxChars*4 bytes hold more than maxChars UTF-16 units, so a sequence cut at the end lies past the slice.
  const buf = Buffer.alloc(maxChars * (utf16 ? 2 : 4));
  const n = withFile(path, (fd) => readSync(fd, buf, 0, buf.length, 0));
  return buf.subarray(0, n).toString(utf16 ? "utf16le" : "utf8").slice(0, maxChars);
}
