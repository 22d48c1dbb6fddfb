/**
 * The Engine, as everything outside core/engine sees it: interception, fetch and recall, session
 * signals, lifecycle actions and a read model. The store, the session table, the ledger, the
 * search index and the tokenizer stay inside; nothing outside reaches past this interface.
 */
import type { CompactReport } from "../store/compact";
import type { SpillwayConfig } from "../config/config";
import type { RecordedAnswer } from "./readLedger";
import type { Clock, Logger } from "../runtime";
import type { SearchHit, SearchOptions } from "../search/searchIndex";
import type { StoreReader } from "../store/read/reader";
import type { ToolCatalogView } from "../store/toolCatalog";
import type { SweepReport } from "../store/lifecycle";
import type { ViewText } from "../sensitivity/views";
import type { BlobMeta, SavingsGroup, SavingsRow } from "../types";
import type { EngineEvent } from "./engineEvents";
import type { CallNoteInput, FailedCallInput, ReadNoteInput } from "./callLedger";
import type { ExpandInput, ExpandResult } from "./expandService";
import type { FetchRequest } from "./fetchService";
import type { TransformInput, TransformResult } from "./transform";
import type { HistorySession } from "../history/types";
import type { ImportSessionResult } from "./importService";

/** A whole blob as a session may see it (MCP resources/read), or why it cannot. */
export type BlobReadResult = { ok: true; meta: BlobMeta; text: string } | { ok: false; message: string };

export interface Engine {
  readonly home: string;
  readonly config: SpillwayConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Everything the inspector, the CLI and the tray read of the store. */
  readonly reader: StoreReader;
  /** The upstream tools each configured server listed last, by server name and config entry: tools/list answers from it at start. */
  readonly toolCatalog: ToolCatalogView;

  /** The one entry for intercepting a tool result. Never throws: fails open to the raw text. */
  transformToolResult(input: TransformInput): TransformResult;
  /** Expands `spill:<id>` tokens in a tool's arguments under the pass-by-reference policy. */
  expandArguments(input: ExpandInput): ExpandResult;
  /** rescuer_fetch, answered or refused, recorded with the answer. `sessionId: null` reads as the operator (not counted as the model's). */
  fetch(req: FetchRequest): RecordedAnswer;
  /** recall_result, recorded like a fetch. */
  recall(sessionId: string | null, resultId: unknown): RecordedAnswer;
  /** The whole content of a blob as the session may see it (masked per the sensitivity mode): MCP resources/read. */
  readBlob(sessionId: string | null, id: unknown): BlobReadResult;
  /**
   * The model's exit for a text composed outside the engine (an MCP content item, a hook answer,
   * an upstream's error): masked per `sensitivity.mode` unless `tool` is in `sensitivity.unmaskedTools`.
   */
  modelView(text: string, tool: string | null): string;
  /** The operator's exit for a text (inspector, exports): masked unless `reveal`. */
  operatorView(text: string, reveal?: boolean): string;
  /** A blob's whole text as the operator sees it (masked unless `reveal`), cached for paging; null when its file is gone. Throws CannotDecrypt for a bad key. */
  operatorBlob(id: string, reveal: boolean): ViewText | null;
  /** The first `lines` lines of a large plain blob as the operator sees them, from its file's head; null: use operatorBlob. */
  operatorHeadLines(id: string, lines: number, reveal: boolean): { text: string; masked: boolean } | null;
  /** The first `maxChars` of a blob as the operator sees it (previews), without reading a large plain file whole. */
  operatorHead(id: string, maxChars: number, reveal?: boolean): { text: string; totalChars: number } | null;
  /** BM25 search over the stored results (all, or within `opts.blobId`). */
  search(query: string, opts?: SearchOptions): SearchHit[];
  /** Live blobs not (yet) in the search index. */
  unindexedBlobs(): number;

  /** A call that produced no result (the upstream crashed, timed out or refused it; the tool is unknown), with the sentence the model got. Returns the call's id. */
  recordFailedCall(input: FailedCallInput): number | null;
  /** What the proxy learnt about a recorded call once answered: duration, JSON-RPC, images, the expansions made for it, the call it is a part of. */
  noteCall(callId: number, note: CallNoteInput): void;
  /** Duration and JSON-RPC of a recorded read (rescuer_fetch, recall_result over MCP). */
  noteRead(eventId: number, note: ReadNoteInput): void;
  /** Stores one session of an agent's own history as an imported (read-only) session; a re-import adds only new calls. */
  importSession(session: HistorySession): ImportSessionResult;

  /**
   * Records that a session is active (and which client runs it, when known). `tools`: a Spillway
   * MCP session serves it, so its model can read handles and stubs.
   */
  touchSession(sessionId: string, client?: string | null, tools?: boolean): void;
  /** Whether a Spillway MCP session has served this session (see `touchSession`). */
  hasTools(sessionId: string): boolean;
  /**
   * The host compacted the session's context: results are delivered in full once more. Returns the
   * new generation. A second signal for the same compaction (PreCompact, then SessionStart "compact")
   * does not count twice.
   */
  compaction(sessionId: string): number;
  /** The user started a new turn (with their prompt, when the host sends it; kept masked). Returns the turn number. */
  turn(sessionId: string, prompt?: string | null): number;

  /**
   * Expires and evicts, and removes ledger detail past `store.detailTtlDays`; `deep` also reconciles files and rows (recovering files
   * the index lost), `verify` (default: deep) reads every blob and quarantines damaged ones. `detailInBackground`: the detail is
   * removed a batch per background task after the sweep returns (a process that answers agents), not before; the report counts none.
   * `alone`: no other process has the store open (a repair checked), so files written moments ago are reconciled too.
   */
  sweep(deep?: boolean, verify?: boolean, detailInBackground?: boolean, alone?: boolean): SweepReport;
  /** Merges the search index and rebuilds the index file without its free pages (store/compact.ts). */
  compact(): CompactReport;
  /** Empties the search index and indexes every live blob again in the background (`idle()` waits); returns how many. */
  rebuildSearchIndex(): number;
  setPinned(id: string, pinned: boolean): boolean;
  purge(id: string): boolean;
  savings(group: SavingsGroup, since?: number): SavingsRow[];
  /** Re-encrypts every encrypted blob under a new key; returns how many. */
  rotateKey(): number;

  onEvent(listener: (e: EngineEvent) => void): () => void;
  /** Resolves when background work (token counts, indexing) is done. */
  idle(): Promise<void>;
  /** Background tasks queued or running now (indexing, token counts, labels): what close() waits for. */
  backgroundTasks(): number;
  /**
   * Resolves at once, or when background work is back under its memory budget: the endpoints await
   * it before taking a new request, so sustained load slows down instead of growing memory.
   */
  backpressure(): Promise<void>;
  close(): Promise<void>;
}
