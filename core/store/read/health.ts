/** Read-only health figures of a store, for `spillway doctor`: the index's own check and a dry-run sweep. */
import type { BlobStore } from "../blobStore";

export interface IndexCheck {
  problems: string[];
  liveBlobs: number;
}

export interface SweepPreview {
  expired: number;
  orphanFiles: number;
  rowsWithoutFile: number;
  tempFiles: number;
  overCap: boolean;
}

export function checkIndex(store: BlobStore): IndexCheck {
  const rows = store.db.pragma("quick_check") as { quick_check: string }[];
  const live = store.db.prepare("SELECT COUNT(*) AS n FROM blobs WHERE tombstoned_at IS NULL").get() as { n: number };
  return { problems: rows.map((r) => r.quick_check).filter((r) => r !== "ok"), liveBlobs: live.n };
}

export function previewSweep(store: BlobStore): SweepPreview {
  const db = store.db;
  const expired = (
    db.prepare("SELECT COUNT(*) AS n FROM blobs WHERE tombstoned_at IS NULL AND pinned = 0 AND expires_at <= ?").get(store.now) as { n: number }
  ).n;
  const { ids, temps } = store.files.scan();
  const liveIds = new Set((db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").all() as { id: string }[]).map((r) => r.id));
  const onDisk = new Set(ids);
  return {
    expired,
    orphanFiles: ids.filter((id) => !liveIds.has(id)).length,
    rowsWithoutFile: [...liveIds].filter((id) => !onDisk.has(id)).length,
    tempFiles: temps.length,
    overCap: store.usedBytes() > store.capBytes(),
  };
}
