/**
 * A new index in place of a damaged one (`spillway doctor --repair`). The damaged file is set
 * aside, never deleted: the calls, the ledger and the search index stay in it for whoever wants
 * to dig. What can still be read of it is carried over first: the store secret (without it no
 * file can be told by its id again), an interrupted key rotation's old key (without it the blobs
 * still sealed under that key could not be read), and the rows that say which session holds which result,
 * so the handles an agent already has keep working. A deep sweep then registers every blob file
 * that has no row (`repair.ts`) and tombstones rows whose file is gone.
 */
import Database from "better-sqlite3";
import { existsSync, renameSync } from "node:fs";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import { indexPath, openIndex, readSecretCopy, secretCopyPath, storeSecret, type Db } from "./db";

/** The tables carried over, in the order their rows must go in (sessions before what names them). */
const CARRIED = ["sessions", "blobs", "session_blobs"] as const;

export interface RebuildReport {
  /** Where the damaged index (and its -wal and -shm) now is. */
  setAside: string;
  /** Where the store secret came from (without one, nothing is changed: see rebuildIndex). */
  secretFrom: "copy" | "damaged index";
  /** Rows read from the damaged index and written to the new one, by table. */
  carried: Record<(typeof CARRIED)[number], number>;
  /** Why a table could be read only in part (or not at all), when it could not. */
  unreadable: string[];
}

/** Whether an error from SQLite says the file is damaged (as opposed to busy, read-only, missing). */
export function isDamagedIndex(err: unknown): boolean {
  const codes = [String((err as { code?: unknown })?.code ?? ""), String((err as { cause?: { code?: unknown } })?.cause?.code ?? "")];
  return codes.some((c) => c.startsWith("SQLITE_CORRUPT") || c === "SQLITE_NOTADB");
}

/** Every row of `table` that can be read before the damage stops the scan. */
function readable(db: Db, table: string, unreadable: string[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  try {
    for (const row of db.prepare(`SELECT * FROM ${table}`).iterate()) rows.push(row as Record<string, unknown>);
  } catch (err) {
    unreadable.push(`${table}: ${rows.length} rows read, then ${describeError(err)}`);
  }
  return rows;
}

/** Sets the index of `home` aside and makes a new one from what can be read of it. No other process may have the store open. */
export function rebuildIndex(home: string, now = Date.now()): RebuildReport {
  const path = indexPath(home);
  const unreadable: string[] = [];
  let secret = readSecretCopy(secretCopyPath(home));
  let secretFrom: RebuildReport["secretFrom"] = "copy";
  let rotatingOldKey: string | undefined;
  const rows: Record<string, Record<string, unknown>[]> = {};
  try {
    const old = new Database(path, { readonly: true, fileMustExist: true });
    try {
      if (!secret) {
        try {
          const row = old.prepare("SELECT value FROM meta WHERE key = 'id_secret'").get() as { value?: unknown } | undefined;
          if (typeof row?.value === "string" && /^[0-9a-f]{64}$/.test(row.value)) [secret, secretFrom] = [row.value, "damaged index"];
        } catch (err) {
          unreadable.push(`meta: ${describeError(err)}`);
        }
      }
      try {
        // An interrupted key rotation's old key: blobs still sealed under it read with it alone.
        const row = old.prepare("SELECT value FROM meta WHERE key = 'rotating_old_key'").get() as { value?: unknown } | undefined;
        if (typeof row?.value === "string") rotatingOldKey = row.value;
      } catch (err) {
        unreadable.push(`meta (an interrupted key rotation's old key): ${describeError(err)}`);
      }
      for (const t of CARRIED) rows[t] = readable(old, t, unreadable);
    } finally {
      old.close();
    }
  } catch (err) {
    unreadable.push(`the whole index: ${describeError(err)}`);
  }

  if (!secret)
    throw new SpillwayError(
      ErrorCode.StoreOpen,
      `cannot rebuild the index of ${home}: its store secret is in neither ${secretCopyPath(home)} nor the damaged index, so no stored file could be told by its id again; nothing was changed (the files are still there)`,
    );
  const setAside = `${path}.damaged-${new Date(now).toISOString().replace(/[:.]/g, "-")}`;
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) renameSync(path + suffix, setAside + suffix);

  const db = openIndex(path);
  const carried = { sessions: 0, blobs: 0, session_blobs: 0 };
  try {
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('id_secret', ?)").run(secret);
    storeSecret(db, secretCopyPath(home));
    if (rotatingOldKey) db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('rotating_old_key', ?)").run(rotatingOldKey);
    db.transaction(() => {
      for (const t of CARRIED) {
        const columns = new Set((db.pragma(`table_info(${t})`) as { name: string }[]).map((c) => c.name));
        // One statement per set of columns (every row of a table has the same, unless the old schema differs).
        const inserts = new Map<string, Database.Statement>();
        for (const row of rows[t] ?? []) {
          const keys = Object.keys(row).filter((k) => columns.has(k));
          const list = keys.join(", ");
          let insert = inserts.get(list);
          if (!insert) {
            insert = db.prepare(`INSERT OR IGNORE INTO ${t} (${list}) VALUES (${keys.map(() => "?").join(", ")})`);
            inserts.set(list, insert);
          }
          try {
            carried[t] += insert.run(...keys.map((k) => row[k])).changes;
          } catch {
            // A row the damage garbled (a NOT NULL column read as null): the sweep recovers its file.
          }
        }
      }
    })();
  } finally {
    db.close();
  }
  return { setAside, secretFrom, carried, unreadable };
}
