/** createEngine: the one composition of the engine, used by the CLI, the endpoints, Electron and the tests. */
import { defaultConfig, type SpillwayConfig } from "../config/config";
import type { EngineEvent } from "./engineEvents";
import { fileKeyProvider, type KeyProvider } from "../crypto/keys";
import { describeError } from "../errors";
import { expandToolArguments, type ExpandInput, type ExpandResult } from "./expandService";
import { keptText } from "./auditText";
import { noteCall, noteRead, recordFailedCall } from "./callLedger";
import { fetchBlob, readBlob, recallResult, type FetchRequest } from "./fetchService";
import type { EngineParts } from "./parts";
import { transformToolResult, type TransformInput, type TransformResult } from "./transform";
import { processAlive, systemClock, stderrLogger, type Clock, type Logger } from "../runtime";
import type { SavingsGroup, SavingsRow } from "../types";
import { StoreReader } from "../store/read/reader";
import type { Engine } from "./engineApi";
import { createTokenCounter } from "../savings/tokens";
import { openSearchIndex } from "../search/searchIndex";
import { maskingLogger } from "../sensitivity/maskJson";
import { SensitiveViews, type ViewText } from "../sensitivity/views";
import { BlobStore, type StoreHooks } from "../store/blobStore";
import { enforceCap, sweep, type SweepReport } from "../store/lifecycle";
import { openStoreParts } from "../store/blobStore";
import { storeToolCatalog } from "../store/toolCatalog";
import { WalCheckpoints } from "../store/walCheckpoint";
import { compactIndex } from "../store/compact";
import { isBusyError, TaskQueue } from "./taskQueue";
import { KeptScans } from "./keptScans";
import { tokenCounts, tokenRecount } from "./tokenCounts";
import { importSession } from "./importService";
import { rotateStoreKey } from "../store/rotate";
import { detectKind } from "../rescue/kind";
import { labelResult, personalDataAsync } from "../sensitivity/labels";
import { countLines } from "../text/lines";
import { detailRetention } from "./detailRetention";
import { indexCatchUp } from "./indexCatchUp";

export interface EngineOptions {
  home: string;
  config?: SpillwayConfig;
  clock?: Clock;
  logger?: Logger;
  keyProvider?: KeyProvider;
  /** Run sweeps on a timer (servers and the app); off for one-shot CLI commands and tests. */
  sweepTimer?: boolean;
  /** Count the tokens an earlier process left uncounted (killed first), in the background; default: with sweepTimer (servers and the app). */
  recountTokens?: boolean;
  /** Index the results an earlier process stored and left out of the search index, in the background; default: with sweepTimer. */
  catchUpIndex?: boolean;
  /** Points where tests stop a child process to kill it there (see StoreHooks). */
  storeHooks?: StoreHooks;
}

/** Chars read past a preview's end, so a secret cut by the end is still recognised and masked. */
const HEAD_MARGIN_CHARS = 1024;
/** Blobs from this size open from the head of their file first (the inspector's first page). */
const HEAD_READ_MIN_BYTES = 8 * 1024 * 1024;
/** Blobs up to this size are indexed for search in the background after they are stored. */
const EAGER_INDEX_MAX_CHARS = 16 * 1024 * 1024;
/** A turn's prompt is kept up to this many chars (masked), to show on the timeline. */
const PROMPT_MAX_CHARS = 2_000;

export type { Engine };

/** The services an engine is made of, for tests and benches that check the store itself. */
const partsOf = new WeakMap<Engine, EngineParts>();

/** The engine's parts (store, sessions, ledger, search, tokens). For tests and benches only: product code uses the Engine interface. */
export function engineInternals(engine: Engine): EngineParts {
  const p = partsOf.get(engine);
  if (!p) throw new Error("not an engine made by createEngine");
  return p;
}

export function createEngine(opts: EngineOptions): Engine {
  const config = opts.config ?? defaultConfig();
  const clock = opts.clock ?? systemClock;
  const views = new SensitiveViews({ mode: config.sensitivity.mode, unmaskedTools: config.sensitivity.unmaskedTools });
  // Log lines end up in files the agent host keeps (a `spillway mcp`'s stderr): masked like the disk.
  const logger = maskingLogger(opts.logger ?? stderrLogger(), (t) => views.storedView(t));
  let onCommit = (): void => {};
  const store = new BlobStore({
    home: opts.home,
    clock,
    config: config.store,
    keys: opts.keyProvider ?? fileKeyProvider(opts.home),
    hooks: { ...opts.storeHooks, afterCommit: () => onCommit() },
  });
  // From a timer, not inside the commit of whichever call's answer took the WAL past its threshold.
  // A commit checks too, past a higher mark, for writes made where the timer gets no turn.
  const checkpoints = new WalCheckpoints(store.db, `${store.indexFile}-shm`, logger);
  checkpoints.start();
  onCommit = () => checkpoints.afterCommit();
  const { sessions, ledger } = openStoreParts(store);
  const search = openSearchIndex(store);
  const toolCatalog = storeToolCatalog(store);
  const tokens = createTokenCounter(config.tokenizer);
  const queue = new TaskQueue(logger);
  const counts = tokenCounts(queue, store, ledger, tokens);
  const recount = tokenRecount(queue, store, tokens, (text, tool) => views.modelView(text, tool), logger);
  if (opts.recountTokens ?? opts.sweepTimer === true) recount.start();
  const listeners = new Set<(e: EngineEvent) => void>();
  const emit = (e: EngineEvent) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        logger.warn("event listener failed", { error: describeError(err) });
      }
    }
  };
  const scans = new KeptScans();
  const onRemoved = (id: string) => {
    search.removeBlob(id);
    views.forget(id);
    scans.forget(id);
  };

  /** Blobs a search asked to have indexed (answered from a scan meanwhile), until their task ends. */
  const askedIndex = new Set<string>();
  const parts: EngineParts = {
    config,
    logger,
    store,
    sessions,
    ledger,
    search,
    tokens,
    emit,
    views,
    scans,
    pendingRedactions: new Map(),
    ...counts,
    schedulePersonalLabel({ id, text, sessionId, tool }) {
      queue.push(async () => {
        if (!store.open) return;
        const found = await personalDataAsync(text);
        if (!found || !store.open) return;
        store.transaction(() => {
          const before = store.meta(id);
          if (!before || !store.raiseLabel(id, found.label)) return;
          ledger.insertEvent({
            ts: store.now,
            type: "label",
            blobId: id,
            sessionId,
            tool,
            data: { from: before.label, to: found.label, reasons: found.reasons },
          });
        }, "immediate");
      }, text.length);
    },
    scheduleIndex(id, given, asked = false) {
      // A search answered from a scan asks for its blob once, ahead of the other background work;
      // the next searches answer from the kept scan until the index is done.
      if (asked && askedIndex.has(id)) return;
      if (asked) askedIndex.add(id);
      // Texts too large to index eagerly are not kept for the task, which only checks and returns.
      const known = given !== undefined && given.length <= EAGER_INDEX_MAX_CHARS ? given : undefined;
      queue.push(
        async () => {
          try {
            await indexNow();
          } finally {
            if (asked) {
              askedIndex.delete(id);
              scans.forget(id);
            }
          }
        },
        known?.length ?? 0,
        asked,
      );
      async function indexNow(): Promise<void> {
        const meta = store.meta(id);
        if (!meta || meta.state === "tombstoned" || (!asked && meta.chars > EAGER_INDEX_MAX_CHARS) || search.isIndexed(id)) return;
        // The caller's copy when it has one: reading the file back would hold a second copy
        // (and its buffer) in memory while indexing.
        const text = known ?? scans.exactText(id) ?? store.read(id);
        if (text === null) return;
        try {
          store.aux.buildLineIndex(id, text);
        } catch (err) {
          // Built on first use instead; the search index must not wait on it.
          logger.error("building a line index failed", { id, error: describeError(err) });
        }
        // In batches with yields, so a large blob does not stall the endpoint. A search that
        // arrives meanwhile answers from a scan of a big blob, or indexes a small one
        // synchronously (ensureIndexed); this run then stops on its first conflicting batch and
        // the queue logs it. The index holds the masked view in
        // every mode: its chunks are on disk, unencrypted, even for an encrypted blob.
        const view = views.maskedBlob(id, text);
        await search.indexBlobAsync(id, view, meta.kind);
        if (search.isIndexed(id)) store.setSidecarBytes(id, Buffer.byteLength(view, "utf8"));
        // The line and search indexes count toward the cap too: they may have taken it over.
        checkCap();
      }
    },
    ensureIndexed(id, text, meta) {
      if (search.isIndexed(id)) return;
      const view = views.maskedBlob(id, text);
      search.indexBlob(id, view, meta.kind);
      store.setSidecarBytes(id, Buffer.byteLength(view, "utf8"));
    },
  };

  // After the commit that grew the store, in transactions of its own: the call's transaction
  // never deletes files, and a kill during eviction leaves every live row with its file. It runs
  // as the first background task, once the call is answered: in a full store (the steady state of
  // a long-used one) each rescue evicts, and removing a blob's rows, search chunks and files cost
  // about 10 ms that the agent's call waited for. Until it runs the store is over its cap by what
  // the calls since added; several such calls share one run.
  let capQueued = false;
  const enforceCapLater = () => {
    capQueued = false;
    try {
      const evicted = enforceCap(store, ledger, onRemoved);
      if (evicted) emit({ type: "sweep", expired: 0, evicted });
    } catch (err) {
      if (isBusyError(err)) throw err; // the queue runs it again once the other process lets go
      logger.error("size cap enforcement failed", { error: describeError(err) });
    }
  };
  const checkCap = () => {
    try {
      if (capQueued || !store.open || store.usedBytes() <= store.capBytes()) return;
      capQueued = true;
      queue.push(enforceCapLater, 0, true);
    } catch (err) {
      logger.error("size cap check failed", { error: describeError(err) });
    }
  };
  store.onGrow = checkCap;

  const describeRecovered = (text: string) => {
    const { kind, shape } = detectKind(text);
    const label = labelResult({ tool: "unknown", args: {}, content: text, toolLabels: {} }).label;
    return { kind, shape, lines: countLines(text), label };
  };
  const retention = detailRetention(store, queue, logger);
  const catchUp = indexCatchUp(store, search, queue, (id) => parts.scheduleIndex(id), EAGER_INDEX_MAX_CHARS, logger);
  if (opts.catchUpIndex ?? opts.sweepTimer === true) catchUp.start();
  const runSweep = (deep = false, verify = deep, detailInBackground = false, alone = false): SweepReport => {
    const report = sweep(store, ledger, logger, {
      deep,
      verify,
      onRemoved,
      describe: describeRecovered,
      onRecovered: (id) => parts.scheduleIndex(id),
      pruneDetail: !detailInBackground,
      alone,
    });
    if (detailInBackground) retention.start();
    if (report.expired || report.evicted) emit({ type: "sweep", expired: report.expired, evicted: report.evicted });
    return report;
  };
  const timer = opts.sweepTimer
    ? setInterval(() => {
        try {
          runSweep(false, false, true);
        } catch (err) {
          logger.error("timed sweep failed", { error: describeError(err) });
        }
      }, config.store.sweepIntervalMinutes * 60_000)
    : null;
  timer?.unref();

  const reader = new StoreReader(store, sessions);
  const engine: Engine = {
    home: opts.home,
    config,
    clock,
    logger,
    reader,
    toolCatalog,
    /** The one entry for intercepting a tool result. Never throws: fails open to the raw text. */
    transformToolResult: (input: TransformInput): TransformResult => transformToolResult(parts, input),
    /** Expands `spill:<id>` tokens in a tool's arguments under the pass-by-reference policy. */
    expandArguments: (input: ExpandInput): ExpandResult => expandToolArguments(parts, input),
    fetch: (req: FetchRequest) => fetchBlob(parts, req),
    recall: (sessionId: string | null, resultId: unknown) => recallResult(parts, sessionId, resultId),
    /** The whole content of a blob as the session may see it (masked per the sensitivity mode): MCP resources/read. */
    readBlob: (sessionId: string | null, id: unknown) => readBlob(parts, sessionId, id),
    search: (query, searchOpts) => search.search(query, searchOpts),
    unindexedBlobs: () => search.unindexedLiveBlobs(),
    recordFailedCall: (input) => recordFailedCall(parts, input),
    noteCall: (callId, note) => noteCall(parts, callId, note),
    noteRead: (eventId, note) => noteRead(parts, eventId, note),
    importSession: (session) => importSession(parts, session),
    /** The model's exit for a text composed outside the engine (an MCP content item, a hook answer): masked per the sensitivity mode. */
    modelView: (text: string, tool: string | null): string => views.modelView(text, tool),
    /** The operator's exit for a text: masked unless `reveal`. */
    operatorView: (text: string, reveal = false): string => views.operatorView(text, reveal),
    /** A blob's whole text as the operator sees it (masked unless `reveal`), cached for paging; null when its file is gone. */
    operatorBlob: (id: string, reveal: boolean): ViewText | null => views.operatorBlob(id, reveal, () => store.read(id)),
    /** The first `lines` lines of a large plain blob as the operator sees them, read from the head of its file; null: use operatorBlob. */
    operatorHeadLines(id: string, lines: number, reveal: boolean): { text: string; masked: boolean } | null {
      const meta = store.meta(id);
      if (!meta || meta.bytes < HEAD_READ_MIN_BYTES || views.hasText(id)) return null;
      const head = reader.headLines(id, lines);
      if (head === null) return null;
      const text = views.operatorView(head, reveal);
      return { text, masked: text !== head };
    },
    /** The first `maxChars` of a blob as the operator sees it (previews), without reading a large plain file whole. */
    operatorHead(id: string, maxChars: number, reveal = false): { text: string; totalChars: number } | null {
      const meta = store.meta(id);
      if (!meta || meta.state === "tombstoned") return null;
      // Small and encrypted blobs are read whole (and cached); a large plain one from its file's head.
      const head = meta.encrypted || meta.chars <= maxChars * 4 ? null : reader.headChars(id, maxChars + HEAD_MARGIN_CHARS);
      if (head !== null) return { text: views.operatorView(head, reveal).slice(0, maxChars), totalChars: meta.chars };
      const v = views.operatorBlob(id, reveal, () => store.read(id));
      return v ? { text: v.text.slice(0, maxChars), totalChars: meta.chars } : null;
    },
    /** Records that a session is active (and which client runs it, when known). */
    touchSession(sessionId: string, client?: string | null, tools = false): void {
      sessions.touch(sessionId, store.now, client, tools);
    },
    hasTools(sessionId: string): boolean {
      const row = sessions.get(sessionId);
      if (!row || row.tools_at === null) return false;
      // The MCP session that served it must still be there: its process (a stdio server ends with its agent).
      return row.tools_pid === null || processAlive(row.tools_pid);
    },
    /** The host compacted the session's context: results are delivered in full once more. */
    compaction(sessionId: string): number {
      // Nothing happened since the last compaction: this is the same one, signalled again.
      if (ledger.lastEventType(sessionId) === "compaction") return sessions.get(sessionId)?.generation ?? 0;
      const g = sessions.advanceGeneration(sessionId, store.now);
      ledger.insertEvent({ ts: store.now, type: "compaction", sessionId, data: { generation: g } });
      emit({ type: "session", sessionId, change: "compaction" });
      return g;
    },
    turn(sessionId: string, prompt?: string | null): number {
      const t = sessions.markTurn(sessionId, store.now);
      const said = typeof prompt === "string" && prompt.trim() ? { prompt: keptText(prompt, PROMPT_MAX_CHARS) } : {};
      ledger.insertEvent({ ts: store.now, type: "turn", sessionId, data: { turn: t, ...said } });
      emit({ type: "session", sessionId, change: "turn" });
      return t;
    },
    sweep: runSweep,
    compact: () => compactIndex(store),
    rebuildSearchIndex(): number {
      search.reset();
      const ids = store.liveIds();
      for (const id of ids) parts.scheduleIndex(id);
      return ids.length;
    },
    setPinned(id: string, pinned: boolean): boolean {
      const ok = store.setPinned(id, pinned);
      if (ok) {
        ledger.insertEvent({ ts: store.now, type: pinned ? "pin" : "unpin", blobId: id });
        emit({ type: "blob", blobId: id, change: pinned ? "pinned" : "unpinned" });
      }
      return ok;
    },
    purge(id: string): boolean {
      const ok = store.transact(() => {
        if (!store.tombstone(id, "purged")) return false;
        onRemoved(id);
        ledger.insertEvent({ ts: store.now, type: "purge", blobId: id });
        return true;
      });
      if (ok) emit({ type: "blob", blobId: id, change: "purged" });
      return ok;
    },
    savings: (group: SavingsGroup, since = 0): SavingsRow[] => reader.savings(group, since),
    rotateKey: (): number => rotateStoreKey(store),
    onEvent(listener: (e: EngineEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Resolves when background work (token counts, indexing, disk flushes) is done. */
    async idle(): Promise<void> {
      await queue.idle();
      await store.flushed();
    },
    backpressure: (): Promise<void> => queue.underBudget(),
    backgroundTasks: (): number => queue.size,
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      retention.stop();
      recount.stop();
      catchUp.stop();
      await queue.idle();
      await store.flushed();
      listeners.clear();
      checkpoints.stop();
      store.close();
    },
  };
  partsOf.set(engine, parts);
  return engine;
}
