/** Retention: TTL expiry, tombstones, the size cap (least recently used first), and crash leftovers. */
import { statSync } from "node:fs";
import type { Logger } from "../runtime";
import type { BlobStore } from "./blobStore";
import type { Ledger } from "./ledger";
import { safeUnlink } from "../fs/fsUtil";

export interface SweepReport {
  expired: number;
  evicted: number;
  tombstonesDropped: number;
  orphanFiles: number;
  tempFiles: number;
  repairedRows: number;
  usedBytes: number;
  capBytes: number;
}

/** Temp files younger than this may belong to a write in progress in another process. */
const TEMP_GRACE_MS = 10 * 60_000;

export interface SweepOptions {
  /** Also reconcile files and rows (slower: lists the blob folders). */
  deep?: boolean;
  /** Called for each blob removed, so derived data (search index) can drop it. */
  onRemoved?: (id: string) => void;
}

/** Expires, evicts and cleans; safe to run from two processes at once. */
export function sweep(store: BlobStore, ledger: Ledger, logger: Logger, opts: SweepOptions = {}): SweepReport {
  const now = store.now;
  const report: SweepReport = {
    expired: 0, evicted: 0, tombstonesDropped: 0, orphanFiles: 0, tempFiles: 0, repairedRows: 0, usedBytes: 0, capBytes: store.capBytes(),
  };
  const expired = store.db
    .prepare("SELECT id, tool FROM blobs WHERE tombstoned_at IS NULL AND pinned = 0 AND expires_at <= ?")
    .all(now) as { id: string; tool: string }[];
  for (const b of expired) {
    if (store.tombstone(b.id, "expired")) {
      report.expired++;
      opts.onRemoved?.(b.id);
      ledger.insertEvent({ ts: now, type: "sweep", blobId: b.id, tool: b.tool, data: { reason: "expired" } });
    }
  }
  report.tombstonesDropped = store.db
    .prepare("DELETE FROM blobs WHERE tombstoned_at IS NOT NULL AND tombstone_expires_at <= ?")
    .run(now).changes;
  report.evicted = enforceCap(store, ledger, opts.onRemoved);
  if (opts.deep) reconcile(store, report, opts.onRemoved);
  report.usedBytes = store.usedBytes();
  if (report.expired || report.evicted || report.orphanFiles || report.repairedRows) logger.info("sweep", { ...report });
  return report;
}

/** Evicts unpinned blobs, least recently used first, until the store is under its cap. */
export function enforceCap(store: BlobStore, ledger: Ledger, onRemoved?: (id: string) => void): number {
  const cap = store.capBytes();
  let used = store.usedBytes();
  if (used <= cap) return 0;
  let evicted = 0;
  const lru = store.db.prepare(
    `SELECT id, tool, bytes + sidecar_bytes AS size FROM blobs
     WHERE tombstoned_at IS NULL AND pinned = 0 ORDER BY last_access_at ASC, created_at ASC LIMIT 200`,
  );
  while (used > cap) {
    const batch = lru.all() as { id: string; tool: string; size: number }[];
    if (batch.length === 0) break;
    for (const b of batch) {
      if (used <= cap) break;
      if (store.tombstone(b.id, "evicted")) {
        evicted++;
        used -= b.size;
        onRemoved?.(b.id);
        ledger.insertEvent({ ts: store.now, type: "evict", blobId: b.id, tool: b.tool, chars: 0, data: { bytes: b.size } });
      }
    }
  }
  return evicted;
}

/**
 * Repairs what a killed process can leave: temp files from interrupted writes, blob files with
 * no row (written, then killed before the insert), and rows whose file is gone.
 */
function reconcile(store: BlobStore, report: SweepReport, onRemoved?: (id: string) => void): void {
  const { ids, temps } = store.files.scan();
  const now = Date.now(); // file mtimes are wall-clock, whatever the engine's clock says
  for (const t of temps) {
    if (now - t.mtimeMs > TEMP_GRACE_MS && safeUnlink(t.path)) report.tempFiles++;
  }
  const has = store.db.prepare("SELECT tombstoned_at FROM blobs WHERE id = ?");
  for (const id of ids) {
    const row = has.get(id) as { tombstoned_at: number | null } | undefined;
    if (row && row.tombstoned_at === null) continue;
    const mtime = fileMtime(store.files.pathOf(id));
    if (mtime !== null && now - mtime > TEMP_GRACE_MS && store.files.remove(id)) report.orphanFiles++;
  }
  const live = store.db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").all() as { id: string }[];
  const present = new Set(ids);
  for (const { id } of live) {
    if (!present.has(id) && !store.files.exists(id) && store.tombstone(id, "file missing")) {
      report.repairedRows++;
      onRemoved?.(id);
    }
  }
}

function fileMtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
