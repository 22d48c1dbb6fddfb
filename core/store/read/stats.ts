/** Store figures for `spillway status`, the tray and the inspector's overview. */
import type { Db } from "../db";
import type { StoreStats } from "./readModel";

export type { StoreStats };

export function storeStats(db: Db): StoreStats {
  const b = db
    .prepare(
      `SELECT SUM(tombstoned_at IS NULL AND pinned = 0) AS live, SUM(tombstoned_at IS NULL AND pinned = 1) AS pinned,
         SUM(tombstoned_at IS NOT NULL) AS tombstoned, SUM(tombstoned_at IS NULL AND encrypted = 1) AS encrypted,
         COALESCE(SUM(CASE WHEN tombstoned_at IS NULL THEN bytes + sidecar_bytes + aux_bytes END), 0) AS used
       FROM blobs`,
    )
    .get() as { live: number | null; pinned: number | null; tombstoned: number | null; encrypted: number | null; used: number };
  const s = db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number };
  const c = db.prepare("SELECT COALESCE(SUM(part_of IS NULL), 0) AS n, MAX(ts) AS last FROM calls").get() as {
    n: number;
    last: number | null;
  };
  return {
    blobs: { live: b.live ?? 0, pinned: b.pinned ?? 0, tombstoned: b.tombstoned ?? 0, encrypted: b.encrypted ?? 0 },
    usedBytes: b.used,
    sessions: s.n,
    calls: c.n,
    lastCallAt: c.last,
  };
}
