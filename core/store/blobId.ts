import { ErrorCode, SpillwayError } from "../errors";
import { BLOB_ID_PATTERN } from "../vocabulary";

/** Validates a blob id's shape; a clear sentence otherwise. */
export function checkBlobId(id: unknown): string {
  if (typeof id !== "string" || !BLOB_ID_PATTERN.test(id)) {
    throw new SpillwayError(
      ErrorCode.BadId,
      `"${String(id).slice(0, 40)}" is not a Spillway id: ids are 12 lowercase hex characters, as in the handle's header.`,
    );
  }
  return id;
}
