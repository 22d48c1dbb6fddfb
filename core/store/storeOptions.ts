/** What a BlobStore is opened with (blobStore.ts). */
import type { SpillwayConfig } from "../config/config";
import type { KeyProvider } from "../crypto/keys";
import type { Clock } from "../runtime";

/** Points in the store's work where a test can stop a process (to SIGKILL it exactly there). */
export interface StoreHooks {
  /** Inside the transaction, right after a blob's row became a tombstone, before the commit. */
  afterTombstone?(id: string): void;
  /** After each commit of transact(), outside the transaction. */
  afterCommit?(): void;
}

export interface StoreOptions {
  home: string;
  clock: Clock;
  config: SpillwayConfig["store"];
  keys: KeyProvider;
  hooks?: StoreHooks;
}
