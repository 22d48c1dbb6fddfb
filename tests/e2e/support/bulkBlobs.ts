/**
 * 100,000 blob rows in a real store's index, inserted in one transaction (files are not
 * needed to list, sort and filter). Tools, kinds, labels and states cycle so filters have
 * known answers.
 */
import type { Db } from "../../../core/store/db";

export const BULK_ROWS = 100_000;
export const BULK_TOOLS = 40;
const KINDS = ["json", "log", "csv", "html", "markdown", "text"] as const;
const LABELS = ["public", "public", "internal", "personal", "credential"] as const;

/** The tool of row `i`: `bulk_tool_<i % 40>` (so each tool has 2,500 rows). */
export const toolOf = (i: number) => `bulk_tool_${String(i % BULK_TOOLS).padStart(2, "0")}`;

export function insertBulkBlobs(db: Db, now: number, rows = BULK_ROWS): void {
  const st = db.prepare(
    `INSERT INTO blobs (id, chars, bytes, lines, encoding, kind, shape, tool, server, session_id, label, encrypted, pinned,
       created_at, last_access_at, expires_at, fetch_count, sidecar_bytes, tombstoned_at, tombstone_expires_at, tombstone_reason)
     VALUES (?, ?, ?, ?, 'utf8', ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );
  const year = 365 * 24 * 3_600_000;
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const chars = 12_001 + ((i * 7919) % 2_000_000);
      const tomb = i % 97 === 0;
      st.run(
        i.toString(16).padStart(12, "0"),
        chars,
        chars,
        1 + Math.floor(chars / 80),
        KINDS[i % KINDS.length],
        `array[${i % 500}] of object{6 keys}`,
        toolOf(i),
        `server_${i % 5}`,
        `bulk-session-${i % 250}`,
        LABELS[i % LABELS.length],
        i % 53 === 0 && !tomb ? 1 : 0,
        now - i * 1_000,
        now - i * 500,
        now + year,
        i % 11,
        tomb ? now - i : null,
        tomb ? now + year : null,
        tomb ? "expired" : null,
      );
    }
  })();
}
