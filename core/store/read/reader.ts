/**
 * The store's read model: everything the inspector, the CLI, the tray and the MCP resources ask
 * of the store, answered here so that no SQL and no blob file is touched outside core/store.
 */
import type { BlobStore } from "../blobStore";
import type { SessionStore } from "../sessions";
import type { BlobMeta, SavingsGroup, SavingsRow } from "../../types";
import { blobFacets, blobIdsMatching, listBlobs, toBlobRow } from "./blobQueries";
import { readHeadChars, readHeadLines } from "./fileHead";
import { checkIndex, storeHealth, type IndexCheck, type StoreHealth } from "./health";
import type { BlobRange } from "../blobReader";
import { toLedgerEvent } from "./ledgerRows";
import type { EventRow } from "../ledger";
import { blobLineage, handlesOf, lastHandle } from "./lineage";
import { callDetail, eventDetail, type DetailDeps } from "./callDetail";
import type {
  BlobFacets,
  BlobFilter,
  BlobList,
  BlobListQuery,
  BlobRow,
  ByReference,
  CallDetail,
  CallQuery,
  CallQueryPage,
  EventDetail,
  LedgerEvent,
  Lineage,
  SessionList,
  SessionListQuery,
  SessionSummary,
  StoreStats,
  StoredHandle,
  TimelinePage,
} from "./readModel";
import { failureTotals, referenceTotals, savings } from "./savings";
import { listSessions, sessionSummary } from "./sessionQueries";
import { storeStats } from "./stats";
import {
  callTexts,
  historyCalls,
  historyRequests,
  historyVersion,
  importedCounts,
  importedSessions,
  type HistoryCall,
  type HistoryRequest,
  type ImportedSessionFilter,
  type ImportedSessionRef,
} from "./history";
import { sessionTimeline } from "./timeline";
import { findCalls } from "./callFilter";

export type { IndexCheck, StoreHealth };
export type { HistoryCall, HistoryRequest, ImportedSessionFilter, ImportedSessionRef };

export class StoreReader {
  constructor(
    private readonly store: BlobStore,
    private readonly sessions: SessionStore,
  ) {}

  /** false once the engine closed the store. */
  get open(): boolean {
    return this.store.db.open;
  }

  /** The store clock's now, in ms. */
  get now(): number {
    return this.store.now;
  }

  stats(): StoreStats {
    return storeStats(this.store.db);
  }

  capBytes(): number {
    return this.store.capBytes();
  }

  usedBytes(): number {
    return this.store.usedBytes();
  }

  /** The id of the newest ledger event (0 for an empty ledger): how watchers see another process's writes. */
  lastEventId(): number {
    return (this.store.db.prepare("SELECT COALESCE(MAX(id), 0) AS id FROM events").get() as { id: number }).id;
  }

  recentEvents(limit: number): LedgerEvent[] {
    return (this.store.db.prepare("SELECT * FROM events ORDER BY id DESC LIMIT ?").all(limit) as EventRow[]).map(toLedgerEvent);
  }

  meta(id: string): BlobMeta | null {
    return this.store.meta(id);
  }

  /** A blob's row as the blobs table shows it (with a tombstone's reason); null when unknown. */
  blob(id: string): BlobRow | null {
    const r = this.store.row(id);
    return r ? toBlobRow(r) : null;
  }

  listBlobs(q: BlobListQuery): BlobList {
    return listBlobs(this.store.db, q);
  }

  /** The ids of the blobs a filter matches, newest first (a search within them). */
  blobIdsMatching(filter: BlobFilter, limit = 100_000): string[] {
    return blobIdsMatching(this.store.db, filter, limit);
  }

  blobFacets(): BlobFacets {
    return blobFacets(this.store.db);
  }

  lineage(id: string): Lineage {
    return blobLineage(this.store.db, id);
  }

  lastHandle(id: string): StoredHandle | null {
    return lastHandle(this.store.db, id);
  }

  listSessions(q: SessionListQuery): SessionList {
    return listSessions(this.store.db, q);
  }

  session(id: string): SessionSummary | null {
    return sessionSummary(this.store.db, id);
  }

  /** A page of a session's call table, with the session's marks (turns, compactions, unowned reads) between the calls. */
  timeline(sessionId: string, afterCallId: number, limit: number): TimelinePage {
    return sessionTimeline({ db: this.store.db, meta: (id) => this.store.meta(id) }, sessionId, afterCallId, limit);
  }

  /** A page of the session's calls that match a filter, searched over all of them, with how many match. */
  findCalls(q: CallQuery): CallQueryPage {
    return findCalls({ db: this.store.db, meta: (id) => this.store.meta(id) }, q);
  }

  /** One call opened (a part's id opens its whole call); `head` gives the (operator-visible) head of a stored blob. */
  callDetail(callId: number, head: DetailDeps["head"]): CallDetail | null {
    return callDetail({ db: this.store.db, meta: (id) => this.store.meta(id), head }, callId);
  }

  /** One ledger event with the answer it gave and its JSON-RPC. */
  eventDetail(eventId: number): EventDetail | null {
    return eventDetail({ db: this.store.db, meta: (id) => this.store.meta(id), head: () => null }, eventId);
  }

  /** The handles given for a content, one per session, latest first. */
  handles(id: string): StoredHandle[] {
    return handlesOf(this.store.db, id);
  }

  /** Failed calls and refused reads since `since` (ms). */
  failureTotals(since = 0): { calls: number; reads: number } {
    return failureTotals(this.store.db, since);
  }

  /** What was passed by `spill:` reference since `since` (ms). */
  referenceTotals(since = 0): ByReference {
    return referenceTotals(this.store.db, since);
  }

  /** Blobs a session holds, most recent first. */
  heldBlobs(sessionId: string, limit = 200): string[] {
    return this.sessions.heldBlobs(sessionId, limit);
  }

  savings(group: SavingsGroup, since = 0): SavingsRow[] {
    return savings(this.store.db, group, since);
  }

  /** The exact text of a live blob, checked against its id (null when it has none). Throws Corrupt or CannotDecrypt, never bad bytes. */
  read(id: string): string | null {
    return this.store.read(id);
  }

  /** Bytes of a live blob's stored form, verified by the chunks read only (see BlobStore.readRange); null when gone. */
  readRange(id: string, start: number, length: number): BlobRange | null {
    return this.store.readRange(id, start, length);
  }

  /** The first `lines` lines of a live plain UTF-8 blob, read (verified) from its head; null when that cannot be done. */
  headLines(id: string, lines: number): string | null {
    const row = this.store.row(id);
    if (!row || row.tombstoned_at !== null) return null;
    return readHeadLines((start, length) => this.store.readRange(id, start, length)?.bytes ?? null, row, lines);
  }

  /** The first `maxChars` of a live plain blob, read (verified) from its head; null when encrypted or gone. */
  headChars(id: string, maxChars: number): string | null {
    const row = this.store.row(id);
    if (!row || row.tombstoned_at !== null) return null;
    return readHeadChars((start, length) => this.store.readRange(id, start, length)?.bytes ?? null, row, maxChars);
  }

  /** Imported sessions (one, an agent's, a project's or all), oldest first. */
  importedSessions(f: ImportedSessionFilter = {}): ImportedSessionRef[] {
    return importedSessions(this.store, f);
  }

  /** The requests of an imported session, in order. */
  historyRequests(sessionId: string): HistoryRequest[] {
    return historyRequests(this.store, sessionId);
  }

  /** The calls of an imported session, in order, with the request that first carried each result. */
  historyCalls(sessionId: string): HistoryCall[] {
    return historyCalls(this.store, sessionId);
  }

  /** Changes whenever an import stores something (for caches of replay figures). */
  historyVersion(): number {
    return historyVersion(this.store);
  }

  /** Imported sessions and calls per agent. */
  importedCounts(): { agent: string; sessions: number; calls: number }[] {
    return importedCounts(this.store);
  }

  /** A call's whole result and what the model was given (exact bytes, for the operator's replay). */
  callTexts(callId: number): { result: string | null; given: string | null } {
    return callTexts(this.store, callId);
  }

  checkIndex(): IndexCheck {
    return checkIndex(this.store);
  }

  /** Files against rows, and the key, for doctor; with `verify` every live blob is read back against its id. */
  health(verify: boolean): StoreHealth {
    return storeHealth(this.store, { verify });
  }
}
