/** Where a key rotation stages a blob's re-encrypted copy: beside the blob's file, until the rotation commits it. */
import { basename } from "node:path";
import { BLOB_ID_PATTERN } from "../vocabulary";

const STAGED_SUFFIX = ".rotate.tmp";

/** The staged copy's path for the blob file at `blobPath`. */
export function stagedCopyPath(blobPath: string): string {
  return blobPath + STAGED_SUFFIX;
}

/** The blob id a staged copy belongs to, or null when `path` is not one. */
export function stagedCopyOf(path: string): string | null {
  const name = basename(path);
  if (!name.endsWith(STAGED_SUFFIX)) return null;
  const id = name.slice(0, -STAGED_SUFFIX.length);
  return BLOB_ID_PATTERN.test(id) ? id : null;
}
