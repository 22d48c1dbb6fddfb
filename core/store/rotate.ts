/**
 * `spillway key rotate`: re-encrypts every encrypted blob under a new key, all or nothing.
 *
 * The protocol, so that a kill at any point leaves every blob readable:
 * 1. the current key is kept in the index as the rotation's old key (one rotation at a time);
 * 2. each live encrypted blob is re-encrypted under the next key into a staged copy beside it;
 * 3. the provider's key becomes the next one: the point of no return;
 * 4. each staged copy is renamed over its blob, then the old key is forgotten.
 * A kill before 3 leaves copies under a key no one has: they are discarded. A kill after 3 leaves
 * blobs under the old key (still in the index) and their copies under the current one: finishing
 * commits the copies. Either way the next store open (with no other process on it) or the next
 * rotation finishes it first, and nothing deletes a staged copy while a rotation is unfinished.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync } from "node:fs";
import { encrypt, isEncrypted } from "../crypto/aead";
import type { BlobStore } from "./blobStore";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import { describeProcesses, otherStoreProcesses } from "./processes";
import { safeUnlink, writeFileAtomic } from "../fs/fsUtil";
import { stagedCopyPath } from "./rotationFiles";
import { inspectFile } from "./scan";

/** Points in a rotation where a test can stop it, as a kill would (nothing after them runs). */
export interface RotationHooks {
  /** The old key recorded; nothing staged yet. */
  afterRecord?(): void;
  /** Every copy staged; the provider's key not yet replaced. */
  afterStage?(): void;
  /** The provider's key replaced; no copy committed yet. */
  afterSwitch?(): void;
  /** One staged copy renamed over its blob. */
  afterCommit?(id: string): void;
}

/** What finishing an interrupted rotation did. */
export interface RotationFinish {
  /** Staged copies under the current key, renamed over their blobs. */
  committed: number;
  /** Blobs still under the old key with no usable copy, re-encrypted in place. */
  resealed: number;
  /** Staged copies under a key no one has (the key never changed), removed. */
  discarded: number;
}

/**
 * Returns how many blobs were re-encrypted. Refused while another process has the store open: it
 * keeps the old key in memory, so what it reads and seals after the rotation would be lost.
 */
export function rotateStoreKey(store: BlobStore, hooks: RotationHooks = {}): number {
  const others = otherStoreProcesses(store.opts.home);
  if (others.length) {
    throw new SpillwayError(
      ErrorCode.Unsupported,
      `the key cannot be rotated while other Spillway processes use this store, as they keep the old key: ${describeProcesses(others, store.opts.home)}`,
    );
  }
  finishRotation(store);
  store.keys.beginRotation();
  hooks.afterRecord?.();
  const next = randomBytes(32);
  const staged = stageAll(store, next);
  hooks.afterStage?.();
  const switched = store.keys.switchKey(next);
  if (switched === "unchanged") {
    discardAll(store, staged);
    store.keys.endRotation();
    throw new SpillwayError(ErrorCode.StoreIo, "key rotation failed, nothing changed: the new key could not be saved");
  }
  if (switched === "unknown") {
    throw new SpillwayError(
      ErrorCode.StoreIo,
      "key rotation interrupted: the key provider failed while saving the new key; every blob stays readable, and the rotation is finished the next time the store opens or spillway key rotate runs",
    );
  }
  hooks.afterSwitch?.();
  for (const id of staged) {
    renameSync(stagedCopyPath(store.files.pathOf(id)), store.files.pathOf(id));
    hooks.afterCommit?.(id);
  }
  store.keys.endRotation();
  return staged.length;
}

/**
 * Finishes a rotation a kill (or a failure) interrupted, so no blob is left needing the old
 * key; null when none was pending. Every staged copy is checked before it replaces a blob.
 */
export function finishRotation(store: BlobStore): RotationFinish | null {
  if (store.keys.pendingRotation() === null) return null;
  const current = store.keys.currentKeyId();
  if (current === null) {
    throw new SpillwayError(ErrorCode.CannotDecrypt, "cannot finish the interrupted key rotation: the store's key is missing");
  }
  const report: RotationFinish = { committed: 0, resealed: 0, discarded: 0 };
  for (const id of liveEncrypted(store)) settle(store, id, current, report);
  store.keys.endRotation();
  return report;
}

/**
 * At store open: finishes an interrupted rotation unless another process has the store open (it
 * may be the rotation itself). A failure leaves it pending, every blob still readable; the next
 * `spillway key rotate` reports it.
 */
export function finishRotationOnOpen(store: BlobStore): void {
  try {
    if (store.keys.pendingRotation() === null || otherStoreProcesses(store.opts.home).length > 0) return;
    finishRotation(store);
  } catch {
    // Left pending: reads still try both keys, and nothing removes the staged copies meanwhile.
  }
}

function liveEncrypted(store: BlobStore): string[] {
  return store.db.prepare("SELECT id FROM blobs WHERE encrypted = 1 AND tombstoned_at IS NULL").pluck().all() as string[];
}

/** Stages every live encrypted blob under `next`; on any failure removes what it staged and throws (nothing changed). */
function stageAll(store: BlobStore, next: Buffer): string[] {
  const staged: string[] = [];
  try {
    for (const id of liveEncrypted(store)) {
      const data = store.files.read(id);
      if (!data) continue;
      const plain = store.keys.decrypt(data, id);
      writeFileAtomic(stagedCopyPath(store.files.pathOf(id)), encrypt(plain, next));
      staged.push(id);
    }
  } catch (err) {
    discardAll(store, staged);
    store.keys.endRotation();
    throw failed(err);
  }
  return staged;
}

function discardAll(store: BlobStore, ids: string[]): void {
  for (const id of ids) safeUnlink(stagedCopyPath(store.files.pathOf(id)));
}

function failed(err: unknown): SpillwayError {
  return err instanceof SpillwayError
    ? err
    : new SpillwayError(ErrorCode.StoreIo, `key rotation failed, nothing changed: ${describeError(err)}`);
}

/** The id of the key an encrypted file names, or null. */
function sealedWith(data: Buffer): string | null {
  return isEncrypted(data) && data.length >= 12 ? data.subarray(4, 12).toString("hex") : null;
}

function readIfAny(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Brings one blob under the current key: its staged copy if that is sound, else its own file re-encrypted. */
function settle(store: BlobStore, id: string, current: string, report: RotationFinish): void {
  const path = store.files.pathOf(id);
  const copyPath = stagedCopyPath(path);
  const copy = readIfAny(copyPath);
  const own = () => {
    const data = store.files.read(id);
    return data ? inspectFile(store, id, data) : null;
  };
  if (copy) {
    if (sealedWith(copy) === current && inspectFile(store, id, copy).ok) {
      try {
        renameSync(copyPath, path);
      } catch (err) {
        // Another process finishing the same rotation committed it first.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      report.committed++;
      return;
    }
    // A copy no known key opens is kept while it might be the blob's only copy.
    if (!own()?.ok) return;
    safeUnlink(copyPath);
    report.discarded++;
  }
  const data = store.files.read(id);
  if (!data || sealedWith(data) === current) return;
  const content = inspectFile(store, id, data);
  // A damaged file is the deep sweep's to quarantine; no key would open it.
  if (!content.ok || !content.encrypted) return;
  store.files.write(id, store.keys.encrypt(content.plain));
  report.resealed++;
}
