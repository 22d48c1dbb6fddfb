/**
 * Read-only health figures of a store, for `spillway doctor`: the index's own check, files
 * against rows (every blob read back against its id when asked), and the encryption key.
 */
import type { BlobStore } from "../blobStore";
import type { KeyStatus } from "../keyRing";
import { quarantined } from "../repair";
import { scanStore, type StoreScan } from "../scan";
import { detailDue, indexSize } from "../detailPrune";

export interface IndexCheck {
  problems: string[];
  liveBlobs: number;
  /** The index file's size, and the part of it that is free pages (reused before the file grows). */
  bytes: number;
  freeBytes: number;
}

export function checkIndex(store: BlobStore): IndexCheck {
  const rows = store.db.pragma("quick_check") as { quick_check: string }[];
  const live = store.db.prepare("SELECT COUNT(*) AS n FROM blobs WHERE tombstoned_at IS NULL").get() as { n: number };
  return { problems: rows.map((r) => r.quick_check).filter((r) => r !== "ok"), liveBlobs: live.n, ...indexSize(store.db) };
}

export interface KeyHealth {
  status: KeyStatus;
  /** Live encrypted blobs. */
  encrypted: number;
  /** Live encrypted blobs whose file names a key other than the current one (or any, when there is none), an unfinished rotation's old key aside. */
  underOtherKeys: number;
  /** The ids of those keys. */
  otherKeyIds: string[];
  /**
   * An interrupted rotation not finished yet (another process had the store open): the key it
   * moves blobs off, and the live blobs still sealed with it. They read fine (the index keeps that
   * key); the next store open with no other process, or `spillway key rotate`, finishes it.
   */
  rotation: { fromKeyId: string; blobs: number } | null;
  /** The newest encrypted blob the key decrypts, else the first it cannot (damaged files aside); null when none was tried. */
  sample: { id: string; ok: boolean; detail: string } | null;
}

export interface StoreHealth {
  scan: StoreScan;
  key: KeyHealth;
  /** Files now in the quarantine folder. */
  quarantined: number;
  /** Live blobs past their expiry (the next sweep tombstones them). */
  expired: number;
  overCap: boolean;
  /** Days call detail is kept (store.detailTtlDays; 0: forever), and the calls whose detail is past it (the next sweep removes it). */
  detailTtlDays: number;
  detailDue: number;
}

/** Surveys the store; with `verify`, every live file is read and checked against its id. */
export function storeHealth(store: BlobStore, opts: { verify: boolean }): StoreHealth {
  const expired = store.db
    .prepare("SELECT COUNT(*) FROM blobs WHERE tombstoned_at IS NULL AND pinned = 0 AND expires_at <= ?")
    .pluck()
    .get(store.now) as number;
  return {
    scan: scanStore(store, opts),
    key: keyHealth(store),
    quarantined: quarantined(store).length,
    expired,
    overCap: store.usedBytes() > store.capBytes(),
    detailTtlDays: store.opts.config.detailTtlDays,
    detailDue: detailDue(store.db, store.opts.config.detailTtlDays, store.now),
  };
}

/** Encrypted blobs tried, newest first, to show the key decrypts real data. */
const SAMPLES = 5;

function keyHealth(store: BlobStore): KeyHealth {
  const status = store.keys.status();
  const ids = store.db
    .prepare("SELECT id FROM blobs WHERE encrypted = 1 AND tombstoned_at IS NULL ORDER BY created_at DESC")
    .pluck()
    .all() as string[];
  const others = new Set<string>();
  let underOtherKeys = 0;
  let underRotatingKey = 0;
  for (const id of ids) {
    const head = store.files.readAt(id, 0, 12);
    if (!head || head.data.length < 12) continue;
    const named = head.data.subarray(4, 12).toString("hex");
    if (named === status.rotatingFrom && named !== status.keyId) underRotatingKey++;
    else if (named !== status.keyId) {
      underOtherKeys++;
      others.add(named);
    }
  }
  // The newest blob the key opens proves it; a damaged file proves nothing about the key (the
  // blobs check reports it), so a few are tried.
  let sample: KeyHealth["sample"] = null;
  for (const id of ids.slice(0, SAMPLES)) {
    const r = store.check(id);
    if (!r) continue;
    if (r.ok) {
      sample = { id, ok: true, detail: "decrypted" };
      break;
    }
    if (r.problem === "undecryptable") sample ??= { id, ok: false, detail: r.detail };
  }
  const rotation = status.rotatingFrom ? { fromKeyId: status.rotatingFrom, blobs: underRotatingKey } : null;
  return { status, encrypted: ids.length, underOtherKeys, otherKeyIds: [...others], rotation, sample };
}
