/** Store figures for `spillway status`, the tray and the inspector's overview. */
import type { Db } from "../db";
import { stmt } from "../statements";
import type { StoreStats } from "./readModel";

export type { StoreStats };

/**
 * Read on every burst of activity (the tray, once a second at most) in the process that also
 * answers the agents, so each figure comes from an index or a kept total, never a scan of the
 * calls table (whose rows hold the handles given: 65 ms at 100 k calls, `npm run bench -- figures`).
 */
export function storeStats(db: Db): StoreStats {
  // blobs_live_lru covers the state and pinning; only the (few) sealed blobs are counted by row.
  const states = stmt(
    db,
    "SELECT tombstoned_at IS NULL AS live, pinned, COUNT(*) AS n FROM blobs INDEXED BY blobs_live_lru GROUP BY 1, 2",
  ).all() as { live: number; pinned: number; n: number }[];
  const count = (live: boolean, pinned?: boolean) =>
    states.filter((r) => r.live === (live ? 1 : 0) && (pinned === undefined || r.pinned === (pinned ? 1 : 0))).reduce((n, r) => n + r.n, 0);
  const encrypted = (stmt(db, "SELECT COUNT(*) AS n FROM blobs WHERE encrypted = 1 AND tombstoned_at IS NULL").get() as { n: number }).n;
  const used = (stmt(db, "SELECT bytes FROM store_usage WHERE id = 0").get() as { bytes: number }).bytes;
  const sessions = (stmt(db, "SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
  // COUNT(*) counts an index's entries without reading rows; the parts of a call are the few with part_of.
  const all = (stmt(db, "SELECT COUNT(*) AS n FROM calls").get() as { n: number }).n;
  const parts = (stmt(db, "SELECT COUNT(*) AS n FROM calls WHERE part_of IS NOT NULL").get() as { n: number }).n;
  const last = (stmt(db, "SELECT MAX(ts) AS last FROM calls").get() as { last: number | null }).last;
  return {
    blobs: { live: count(true, false), pinned: count(true, true), tombstoned: count(false), encrypted },
    usedBytes: used,
    sessions,
    calls: all - parts,
    lastCallAt: last,
  };
}
