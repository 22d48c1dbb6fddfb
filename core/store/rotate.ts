/** `spillway key rotate`: re-encrypts every encrypted blob under a new key, all or nothing. */
import { renameSync } from "node:fs";
import type { BlobStore } from "./blobStore";
import { ErrorCode, SpillwayError } from "../errors";
import { describeProcesses, otherStoreProcesses } from "./processes";
import { safeUnlink, writeFileAtomic } from "../fs/fsUtil";

/**
 * Returns how many blobs were re-encrypted. Refused while another process has the store open: it
 * keeps the old key in memory, so what it reads and seals after the rotation would be lost.
 */
export function rotateStoreKey(store: BlobStore): number {
  const others = otherStoreProcesses(store.opts.home);
  if (others.length) {
    throw new SpillwayError(
      ErrorCode.Unsupported,
      `the key cannot be rotated while other Spillway processes use this store, as they keep the old key: ${describeProcesses(others, store.opts.home)}`,
    );
  }
  const ids = (store.db.prepare("SELECT id FROM blobs WHERE encrypted = 1 AND tombstoned_at IS NULL").all() as { id: string }[]).map(
    (r) => r.id,
  );
  return store.keys.rotate(
    ids.map((id) => ({
      id,
      read: () => store.files.read(id),
      stage: (data: Buffer) => {
        const path = `${store.files.pathOf(id)}.rotate.tmp`;
        writeFileAtomic(path, data);
        return path;
      },
      commit: (staged: string) => renameSync(staged, store.files.pathOf(id)),
      discard: (staged: string) => void safeUnlink(staged),
    })),
  );
}
