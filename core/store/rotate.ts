/** `spillway key rotate`: re-encrypts every encrypted blob under a new key, all or nothing. */
import { renameSync } from "node:fs";
import type { BlobStore } from "./blobStore";
import { safeUnlink, writeFileAtomic } from "../fs/fsUtil";

/** Returns how many blobs were re-encrypted. */
export function rotateStoreKey(store: BlobStore): number {
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
