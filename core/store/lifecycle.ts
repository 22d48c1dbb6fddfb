/** Retention: TTL expiry, tombstones, the size cap (least recently used first), the ledger's detail, and crash leftovers. */
import type { Logger } from "../runtime";
import type { BlobStore } from "./blobStore";
import { detailPrune, indexSize, type PruneCounts } from "./detailPrune";
import type { Ledger } from "./ledger";
import { dropQuarantine, repairStore, type RecoveredInfo } from "./repair";
import { scanStore } from "./scan";

export interface SweepReport {
  expired: number;
  evicted: number;
  tombstonesDropped: number;
  /** Files of tombstones that a kill left behind, removed. */
  orphanFiles: number;
  tempFiles: number;
  repairedRows: number;
  /** Damaged or undecryptable files moved to the quarantine folder. */
  quarantined: number;
  /** Files the index had lost, registered again (or restored from quarantine). */
  recovered: number;
  /** Quarantined files removed after the tombstone TTL. */
  quarantineDropped: number;
  usedBytes: number;
  capBytes: number;
  /** Calls and reads whose detail (raw record, texts, answers) was removed, past `store.detailTtlDays`. */
  detailPruned: PruneCounts;
  /** The index file's size, and the part of it that is free pages (reused before the file grows). */
  indexBytes: number;
  indexFreeBytes: number;
}

export interface SweepOptions {
  /** Also reconcile files and rows (slower: lists the blob folders, reads files without rows). */
  deep?: boolean;
  /** With `deep`: read every live blob whole and quarantine damaged ones (slowest). Defaults to `deep`. */
  verify?: boolean;
  /** Called for each blob removed, so derived data (search index) can drop it. */
  onRemoved?: (id: string) => void;
  /** Called for each blob recovered from its file, so it can be indexed again. */
  onRecovered?: (id: string) => void;
  /** Kind, lines and label of a recovered result, from its text. Without it, nothing is recovered. */
  describe?: (text: string) => RecoveredInfo;
  /** Remove the detail past `store.detailTtlDays` here, all of it (default). false: the caller runs it in steps (detailPrune). */
  pruneDetail?: boolean;
  /** No other process has the store open (a repair checked): files written moments ago are looked at too. */
  alone?: boolean;
}

/** Blobs tombstoned per transaction by expiry and eviction. */
const BATCH = 200;

/** Expires, evicts and cleans; safe to run from two processes at once. */
export function sweep(store: BlobStore, ledger: Ledger, logger: Logger, opts: SweepOptions = {}): SweepReport {
  const now = store.now;
  const report: SweepReport = {
    expired: 0,
    evicted: 0,
    tombstonesDropped: 0,
    orphanFiles: 0,
    tempFiles: 0,
    repairedRows: 0,
    quarantined: 0,
    recovered: 0,
    quarantineDropped: 0,
    usedBytes: 0,
    capBytes: store.capBytes(),
    detailPruned: { calls: 0, reads: 0 },
    indexBytes: 0,
    indexFreeBytes: 0,
  };
  const due = store.db.prepare(
    `SELECT id, tool FROM blobs WHERE tombstoned_at IS NULL AND pinned = 0 AND expires_at <= ? ORDER BY expires_at LIMIT ${BATCH}`,
  );
  for (;;) {
    const batch = due.all(now) as { id: string; tool: string }[];
    if (batch.length === 0) break;
    store.transact(() => {
      for (const b of batch) {
        if (store.tombstone(b.id, "expired")) {
          report.expired++;
          opts.onRemoved?.(b.id);
          ledger.insertEvent({ ts: now, type: "sweep", blobId: b.id, tool: b.tool, data: { reason: "expired" } });
        }
      }
    });
  }
  report.tombstonesDropped = store.db
    .prepare("DELETE FROM blobs WHERE tombstoned_at IS NOT NULL AND tombstone_expires_at <= ?")
    .run(now).changes;
  report.quarantineDropped = dropQuarantine(store);
  report.evicted = enforceCap(store, ledger, opts.onRemoved);
  if (opts.deep) deepRepair(store, ledger, report, opts);
  if (opts.pruneDetail !== false) report.detailPruned = detailPrune(store)?.run() ?? report.detailPruned;
  report.usedBytes = store.usedBytes();
  const size = indexSize(store.db);
  report.indexBytes = size.bytes;
  report.indexFreeBytes = size.freeBytes;
  const pruned = report.detailPruned.calls + report.detailPruned.reads;
  if (report.expired || report.evicted || report.orphanFiles || report.repairedRows || report.quarantined || report.recovered || pruned) {
    logger.info("sweep", { ...report });
  }
  return report;
}

/**
 * A result written or read this recently is never evicted: its handle was just given, and the
 * model's reads of it follow. A store over its cap from such results alone waits for them to age.
 */
export const EVICT_GRACE_MS = 120_000;

/**
 * Evicts unpinned blobs, least recently used first, until the store is under its cap. Each batch
 * commits before its files are deleted (BlobStore.transact).
 */
export function enforceCap(store: BlobStore, ledger: Ledger, onRemoved?: (id: string) => void): number {
  const cap = store.capBytes();
  let evicted = 0;
  const lru = store.db.prepare(
    `SELECT id, tool, bytes + sidecar_bytes + aux_bytes AS size FROM blobs
     WHERE tombstoned_at IS NULL AND pinned = 0 AND last_access_at < ? ORDER BY last_access_at ASC, created_at ASC LIMIT ${BATCH}`,
  );
  for (;;) {
    const more = store.transact(() => {
      let used = store.usedBytes();
      if (used <= cap) return false;
      const batch = lru.all(store.now - EVICT_GRACE_MS) as { id: string; tool: string; size: number }[];
      if (batch.length === 0) return false;
      for (const b of batch) {
        if (used <= cap) break;
        if (store.tombstone(b.id, "evicted")) {
          evicted++;
          used -= b.size;
          onRemoved?.(b.id);
          ledger.insertEvent({ ts: store.now, type: "evict", blobId: b.id, tool: b.tool, chars: 0, data: { bytes: b.size } });
        }
      }
      return used > cap;
    });
    if (!more) return evicted;
  }
}

/** Repairs what a killed process, a lost index or a damaged disk can leave (see repair.ts). */
function deepRepair(store: BlobStore, ledger: Ledger, report: SweepReport, opts: SweepOptions): void {
  const scan = scanStore(store, { verify: opts.verify ?? true, ...(opts.alone ? { graceMs: 0 } : {}) });
  const r = repairStore(store, scan, opts.describe ?? null);
  report.orphanFiles += r.tombstoneFiles;
  report.tempFiles += r.tempFiles;
  report.repairedRows += r.repairedRows;
  report.quarantined += r.quarantined;
  report.recovered += r.recovered + r.restored;
  for (const id of r.removedIds) opts.onRemoved?.(id);
  for (const id of r.recoveredIds) opts.onRecovered?.(id);
  for (const bad of r.damaged) {
    ledger.insertEvent({
      ts: store.now,
      type: "sweep",
      blobId: bad.id,
      data: { reason: "corrupt", problem: bad.problem, detail: bad.detail },
    });
  }
  for (const id of r.recoveredIds) ledger.insertEvent({ ts: store.now, type: "sweep", blobId: id, data: { reason: "recovered" } });
}
