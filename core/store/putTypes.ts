/** The types a put takes and gives back (BlobStore.put, prepareText). */
import type { BlobMeta, Kind, Label } from "../types";
import type { BlobEncoding } from "./blobFiles";
import type { BlobProblem } from "./integrity";

/** What a blob's row says of its content. */
export interface Described {
  kind: Kind;
  shape: string;
  lines: number;
}

/**
 * Who stored a blob and its label, with its description given, or computed by `describe` once
 * the file is being written (the disk then flushes it while the description is worked out).
 */
export type PutInfo = { tool: string; server?: string | null; sessionId: string; label: Label } & (Described | { describe(): Described });

/** A text encoded for storage, with its id. */
export interface PreparedText {
  text: string;
  encoding: BlobEncoding;
  /** Encoded size in bytes. */
  bytes: number;
  id: string;
  /**
   * The encoded bytes, when kept for the write: one encoding then serves the id, the chunk
   * checksums, the file and (ASCII text) the secret scans, at the cost of holding them until the put.
   */
  encoded?: Buffer;
  /** Set when `encoded` is lent by the store's scratch: valid only until the store encodes another text. */
  lease?: number;
}

/** What a put did: the blob's row after it, whether it was written, and the label its row had before (null when there was no row, live or tombstoned). */
export interface PutResult {
  meta: BlobMeta;
  created: boolean;
  previousLabel: Label | null;
  repaired?: BlobProblem;
}
