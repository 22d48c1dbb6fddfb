/** The services an engine is made of, as the interception, fetch and expansion paths see them. */
import type { SpillwayConfig } from "../config/config";
import type { Logger } from "../runtime";
import type { BlobStore } from "../store/blobStore";
import type { Ledger } from "../store/ledger";
import type { SessionStore } from "../store/sessions";
import type { SearchIndex } from "../search/searchIndex";
import type { TokenCounter } from "../savings/tokens";
import type { SensitiveViews } from "../sensitivity/views";
import type { BlobMeta } from "../types";
import type { EngineEvent } from "./engineEvents";
import type { KeptScans } from "./keptScans";

export interface EngineParts {
  config: SpillwayConfig;
  logger: Logger;
  store: BlobStore;
  sessions: SessionStore;
  ledger: Ledger;
  search: SearchIndex;
  tokens: TokenCounter;
  /** The exits: what the model, the operator and the disk get of a text (one cache of blob views). */
  views: SensitiveViews;
  /** Scans that searches of big blobs answered from, kept until the blob's index is done. */
  scans: KeptScans;
  /** Per read event: argument runs naming a secret, still to mask in the JSON-RPC noted after the answer. */
  pendingRedactions: Map<number, readonly string[]>;
  /** Counts the call's tokens off the hot path and stores them in the ledger. */
  countCallTokens(callId: number, returned: string, given: string): void;
  /** Counts a read's answer (what the model was given) off the hot path and stores it on its ledger event. */
  countReadTokens(eventId: number, text: string): void;
  /** Queues a blob for search indexing off the hot path; `asked`: a search asked for it, index it whatever its size (once). */
  scheduleIndex(id: string, text?: string, asked?: boolean): void;
  /** Looks for personal data in a stored blob's text off the hot path, and raises its label when it finds some. */
  schedulePersonalLabel(job: { id: string; text: string; sessionId: string; tool: string }): void;
  /** Indexes a blob now if it is not yet (a search is waiting on it). */
  ensureIndexed(id: string, text: string, meta: BlobMeta): void;
  emit(event: EngineEvent): void;
}
