/** Row shapes of the index and their mapping to engine types. */
import type { BlobMeta, BlobState, Kind, Label } from "../types";
import type { BlobEncoding } from "./blobFiles";

export interface BlobRow {
  id: string;
  chars: number;
  bytes: number;
  lines: number;
  encoding: BlobEncoding;
  kind: Kind;
  shape: string;
  tool: string;
  server: string | null;
  session_id: string;
  label: Label;
  encrypted: number;
  pinned: number;
  created_at: number;
  last_access_at: number;
  expires_at: number;
  fetch_count: number;
  sidecar_bytes: number;
  /** Bytes of the files kept beside the blob (line index, outline). */
  aux_bytes: number;
  tombstoned_at: number | null;
  tombstone_expires_at: number | null;
  tombstone_reason: string | null;
  /** Per-chunk checksums of the file (integrity.ts); null for encrypted or older blobs. */
  chunk_sums: Buffer | null;
}

export function toBlobMeta(r: BlobRow): BlobMeta {
  const state: BlobState = r.tombstoned_at !== null ? "tombstoned" : r.pinned ? "pinned" : "live";
  return {
    id: r.id,
    chars: r.chars,
    bytes: r.bytes,
    lines: r.lines,
    kind: r.kind,
    shape: r.shape,
    tool: r.tool,
    server: r.server,
    sessionId: r.session_id,
    label: r.label,
    encrypted: r.encrypted === 1,
    pinned: r.pinned === 1,
    state,
    createdAt: r.created_at,
    lastAccessAt: r.last_access_at,
    expiresAt: r.expires_at,
    fetchCount: r.fetch_count,
    tombstonedAt: r.tombstoned_at,
  };
}
