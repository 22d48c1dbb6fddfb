/**
 * What a deep sweep does with a store scan: damaged blobs go to quarantine, files the index lost
 * are registered again as recovered results, quarantined files that verify again (the key came
 * back) are restored. Nothing that matches its id is ever deleted as garbage. Each change runs
 * under the write lock and re-checks its row there, so another process storing the same content
 * at that moment is never undone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Kind, Label } from "../types";
import { safeUnlink } from "../fs/fsUtil";
import { decodeText } from "./blobFiles";
import type { BlobStore } from "./blobStore";
import { stmt } from "./statements";
import { inspectFile, type FileContent, type StoreScan } from "./scan";

const HOUR = 3_600_000;

/** The tool named by rows rebuilt from files. */
export const RECOVERED_TOOL = "unknown (recovered)";
/** The session named by recovered rows: no session holds them, so only the operator reads them. */
export const RECOVERED_SESSION = "recovered";

/** What can be derived of a result from its text alone. */
export interface RecoveredInfo {
  kind: Kind;
  shape: string;
  lines: number;
  label: Label;
}

export interface RepairReport {
  quarantined: number;
  recovered: number;
  restored: number;
  tombstoneFiles: number;
  tempFiles: number;
  repairedRows: number;
  recoveredIds: string[];
  removedIds: string[];
  /** Live blobs tombstoned as damaged, with what was wrong. */
  damaged: { id: string; problem: string; detail: string }[];
}

const liveState = (store: BlobStore, id: string) =>
  stmt(store.db, "SELECT tombstoned_at, tombstone_reason FROM blobs WHERE id = ?").get(id) as
    { tombstoned_at: number | null; tombstone_reason: string | null } | undefined;

/**
 * Acts on a scan. `describe` derives kind, lines and label for recovered results; without it,
 * recoverable files are left where they are (never removed).
 */
export function repairStore(store: BlobStore, scan: StoreScan, describe: ((text: string) => RecoveredInfo) | null): RepairReport {
  const report: RepairReport = {
    quarantined: 0,
    recovered: 0,
    restored: 0,
    tombstoneFiles: 0,
    tempFiles: 0,
    repairedRows: 0,
    recoveredIds: [],
    removedIds: [],
    damaged: [],
  };
  for (const path of scan.staleTemps) if (safeUnlink(path)) report.tempFiles++;
  for (const id of scan.tombstoneFiles) {
    store.transact(() => {
      const r = liveState(store, id);
      if (!r || r.tombstoned_at === null) return;
      // A blob tombstoned as damaged keeps its file in quarantine; any other tombstone's file is garbage.
      const done = r.tombstone_reason === "corrupt" ? store.moveToQuarantine(id) : safeUnlink(store.files.pathOf(id));
      store.files.removeAux(id);
      if (done) report.tombstoneFiles++;
    });
  }
  for (const id of scan.missingFiles) {
    store.transact(() => {
      const r = liveState(store, id);
      if (r && r.tombstoned_at === null && !store.files.exists(id) && store.tombstone(id, "file missing")) {
        report.repairedRows++;
        report.removedIds.push(id);
      }
    });
  }
  for (const bad of scan.bad) {
    store.transact(() => {
      // Re-checked under the lock: another process may have just written it afresh.
      const now = store.check(bad.id);
      if (now && !now.ok && store.tombstone(bad.id, "corrupt")) {
        report.quarantined++;
        report.removedIds.push(bad.id);
        report.damaged.push({ id: bad.id, problem: now.problem, detail: now.detail });
      }
    });
  }
  for (const id of describe ? scan.recoverable : []) {
    store.transact(() => {
      if (liveState(store, id)) return;
      const data = store.files.read(id);
      const content = data ? inspectFile(store, id, data) : null;
      if (!content?.ok) return;
      register(store, id, data!.length, content, describe!);
      report.recovered++;
      report.recoveredIds.push(id);
    });
  }
  for (const orphan of scan.unverifiable) {
    store.transact(() => {
      if (!liveState(store, orphan.id) && store.moveToQuarantine(orphan.id)) report.quarantined++;
    });
  }
  if (describe) restoreFromQuarantine(store, describe, report);
  return report;
}

/** A row for a file the index lost, with what its content tells: tool unknown, no session. */
function register(
  store: BlobStore,
  id: string,
  fileBytes: number,
  content: FileContent & { ok: true },
  describe: (text: string) => RecoveredInfo,
): void {
  const text = decodeText(content.plain, content.encoding);
  const info = describe(text);
  const now = store.now;
  stmt(
    store.db,
    `INSERT INTO blobs (id, chars, bytes, lines, encoding, kind, shape, tool, server, session_id, label, encrypted,
       pinned, created_at, last_access_at, expires_at, fetch_count, sidecar_bytes, chunk_sums)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 'public', ?, 0, ?, ?, ?, 0, 0, ?)
     ON CONFLICT (id) DO NOTHING`,
  ).run(
    id,
    text.length,
    fileBytes,
    info.lines,
    content.encoding,
    info.kind,
    info.shape,
    RECOVERED_TOOL,
    RECOVERED_SESSION,
    content.encrypted ? 1 : 0,
    now,
    now,
    now + store.opts.config.ttlHours * HOUR,
    content.encrypted ? null : store.hasher.chunkSums(content.plain),
  );
  // Sealed files were credential results; a plain one that holds secrets is sealed now.
  store.raiseLabel(id, content.encrypted ? "credential" : info.label);
}

/** Quarantined files are `<id>.<time>`; past the tombstone TTL they go, and ones that verify again come back. */
function restoreFromQuarantine(store: BlobStore, describe: (text: string) => RecoveredInfo, report: RepairReport): void {
  for (const q of quarantined(store)) {
    if (q.at + store.opts.config.tombstoneTtlHours * HOUR <= store.now) continue; // expired: dropQuarantine removes it
    store.transact(() => {
      const r = liveState(store, q.id);
      if ((r && r.tombstone_reason !== "corrupt") || (r && r.tombstoned_at === null) || store.files.exists(q.id)) return;
      let data: Buffer;
      try {
        data = readFileSync(q.path);
      } catch {
        return; // removed meanwhile by another sweep
      }
      const content = inspectFile(store, q.id, data);
      if (!content.ok) return;
      store.files.moveIn(q.id, q.path);
      if (r) {
        stmt(
          store.db,
          `UPDATE blobs SET tombstoned_at = NULL, tombstone_expires_at = NULL, tombstone_reason = NULL,
             expires_at = MAX(expires_at, ?) WHERE id = ?`,
        ).run(store.now + store.opts.config.ttlHours * HOUR, q.id);
      } else register(store, q.id, data.length, content, describe);
      report.restored++;
      report.recoveredIds.push(q.id);
    });
  }
}

/** Removes quarantined files older than the tombstone TTL; returns how many. */
export function dropQuarantine(store: BlobStore): number {
  let n = 0;
  for (const q of quarantined(store)) {
    if (q.at + store.opts.config.tombstoneTtlHours * HOUR <= store.now && safeUnlink(q.path)) n++;
  }
  return n;
}

/** Files in the quarantine folder, with the time each was moved there. */
export function quarantined(store: BlobStore): { id: string; at: number; path: string }[] {
  let names: string[];
  try {
    names = readdirSync(store.quarantineDir);
  } catch {
    return [];
  }
  const out: { id: string; at: number; path: string }[] = [];
  for (const name of names) {
    const m = /^([0-9a-f]{12})\.(\d+)$/.exec(name);
    if (m) out.push({ id: m[1]!, at: Number(m[2]), path: join(store.quarantineDir, name) });
  }
  return out;
}
