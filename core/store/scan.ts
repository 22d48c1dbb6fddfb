/**
 * A read-only survey of the store's files against its index: what `doctor` reports and what a
 * deep sweep then repairs. Reading every file is the point (it is how damage is found), so this
 * runs on demand only, never on the hot path.
 */
import { readFileSync, statSync } from "node:fs";
import { isEncrypted } from "../crypto/aead";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import type { BlobEncoding } from "./blobFiles";
import type { BlobStore } from "./blobStore";
import type { BlobProblem } from "./integrity";
import { stagedCopyOf } from "./rotationFiles";

/** Files younger than this may belong to a write in progress in another process: left alone. */
export const WRITE_GRACE_MS = 10 * 60_000;

/** A blob whose file cannot be served. */
export interface BadBlob {
  id: string;
  problem: BlobProblem;
  detail: string;
}

export interface StoreScan {
  /** Live blobs whose files were checked whole, and their bytes. */
  verified: number;
  verifiedBytes: number;
  /** Live blobs whose file is damaged or cannot be decrypted. */
  bad: BadBlob[];
  /** Live rows whose file is gone. */
  missingFiles: string[];
  /** Files with no row whose content matches their id: results the index lost, recoverable. */
  recoverable: string[];
  /** Files with no row that do not match their id (or cannot be decrypted to tell). */
  unverifiable: BadBlob[];
  /** Files of tombstoned rows (a kill between a tombstone's commit and the file's removal). */
  tombstoneFiles: string[];
  /** Temp files of interrupted writes, and files kept beside blobs that are gone, older than the grace period. */
  staleTemps: string[];
  /** Files younger than the grace period that were not looked at. */
  young: number;
}

/** What a file holds once decrypted and matched against the id it is named by. */
export type FileContent =
  { ok: true; plain: Buffer; encoding: BlobEncoding; encrypted: boolean } | { ok: false; problem: BlobProblem; detail: string };

/** Decrypts (if sealed) and matches a file's bytes against `id`, trying both stored encodings. */
export function inspectFile(store: BlobStore, id: string, data: Buffer): FileContent {
  if (isEncrypted(data)) {
    try {
      const plain = store.keys.decrypt(data, id);
      const encoding = store.hasher.matchId(id, plain);
      if (encoding) return { ok: true, plain, encoding, encrypted: true };
      return { ok: false, problem: "corrupt", detail: `${id}: its decrypted content does not match its id` };
    } catch (err) {
      // A plain file may start with the same four bytes by chance: try it as plain text first.
      const encoding = store.hasher.matchId(id, data);
      if (encoding) return { ok: true, plain: data, encoding, encrypted: false };
      const undecryptable = err instanceof SpillwayError && err.code === ErrorCode.CannotDecrypt;
      return { ok: false, problem: undecryptable ? "undecryptable" : "corrupt", detail: describeError(err) };
    }
  }
  const encoding = store.hasher.matchId(id, data);
  if (encoding) return { ok: true, plain: data, encoding, encrypted: false };
  return { ok: false, problem: "corrupt", detail: `${id}: its content does not match its id` };
}

/**
 * Surveys files and rows; with `verify`, reads and checks every live blob file whole. `graceMs`:
 * files younger than this are left alone (another process may be writing them); 0 when no other
 * process has the store open (a repair).
 */
export function scanStore(store: BlobStore, opts: { verify: boolean; graceMs?: number }): StoreScan {
  const grace = opts.graceMs ?? WRITE_GRACE_MS;
  const scan: StoreScan = {
    verified: 0,
    verifiedBytes: 0,
    bad: [],
    missingFiles: [],
    recoverable: [],
    unverifiable: [],
    tombstoneFiles: [],
    staleTemps: [],
    young: 0,
  };
  const { ids, temps, aux } = store.files.scan();
  const wall = Date.now(); // file mtimes are wall-clock, whatever the engine's clock says
  const rotating = store.keys.pendingRotation() !== null;
  for (const t of temps) if (wall - t.mtimeMs > grace && !keptCopy(store, t.path, rotating)) scan.staleTemps.push(t.path);
  const state = store.db.prepare("SELECT tombstoned_at FROM blobs WHERE id = ?");
  // Files kept beside a blob that is gone are leftovers, removed as stale temps are.
  for (const a of aux) {
    const row = state.get(a.id) as { tombstoned_at: number | null } | undefined;
    if ((!row || row.tombstoned_at !== null) && isSettled(a.path, wall, grace)) scan.staleTemps.push(a.path);
  }
  for (const id of ids) {
    const row = state.get(id) as { tombstoned_at: number | null } | undefined;
    if (row && row.tombstoned_at === null) continue;
    if (!isSettled(store.files.pathOf(id), wall, grace)) {
      scan.young++;
      continue;
    }
    if (row) {
      scan.tombstoneFiles.push(id);
      continue;
    }
    const data = store.files.read(id);
    if (!data) continue;
    const content = inspectFile(store, id, data);
    if (content.ok) scan.recoverable.push(id);
    else scan.unverifiable.push({ id, problem: content.problem, detail: content.detail });
  }
  const present = new Set(ids);
  const live = store.db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").pluck().all() as string[];
  for (const id of live) {
    if (!present.has(id) && !store.files.exists(id)) {
      scan.missingFiles.push(id);
      continue;
    }
    if (!opts.verify) continue;
    const r = store.check(id);
    if (!r) continue; // tombstoned meanwhile
    if (r.ok) {
      scan.verified++;
      scan.verifiedBytes += r.bytes;
    } else if (r.problem === "missing") scan.missingFiles.push(id);
    else scan.bad.push({ id, problem: r.problem, detail: r.detail });
  }
  return scan;
}

/**
 * Whether a temp file is a key rotation's staged copy that must stay: all of them while the
 * rotation is unfinished (finishing commits them), and after, one that opens while its live
 * blob's own file does not (its only readable copy).
 */
function keptCopy(store: BlobStore, path: string, rotating: boolean): boolean {
  const id = stagedCopyOf(path);
  if (id === null) return false;
  if (rotating) return true;
  if (!store.db.prepare("SELECT 1 FROM blobs WHERE id = ? AND tombstoned_at IS NULL").get(id)) return false;
  const own = store.files.read(id);
  if (own && inspectFile(store, id, own).ok) return false;
  try {
    return inspectFile(store, id, readFileSync(path)).ok;
  } catch {
    return false;
  }
}

/** True when the file was last written longer ago than the grace period. */
export function isSettled(path: string, wall = Date.now(), grace = WRITE_GRACE_MS): boolean {
  try {
    return wall - statSync(path).mtimeMs > grace;
  } catch {
    return false;
  }
}
