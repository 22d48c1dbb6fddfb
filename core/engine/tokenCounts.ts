/**
 * Token counts of calls and reads, always after the answer went out: small texts in batches (one
 * transaction a batch), big ones each in its own task, exact up to a size and estimated from a
 * sample above it. The counts wait in memory, so an engine that opens a store also counts, in the
 * background, the rows an earlier process was killed before counting (tokenRecount).
 */
import { randomUUID } from "node:crypto";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import type { TokenCounter, TokenMeasure } from "../savings";
import type { BlobStore } from "../store/blobStore";
import type { Ledger } from "../store/ledger";
import { storeUncountedTokens, type UncountedCall, type UncountedRead } from "../store";
import type { EngineParts } from "./parts";
import type { TaskQueue } from "./taskQueue";

/** Texts up to this size are counted in batches. */
const SMALL_CHARS = 16_384;

export function tokenCounts(
  queue: TaskQueue,
  store: BlobStore,
  ledger: Ledger,
  tokens: TokenCounter,
): Pick<EngineParts, "countCallTokens" | "countReadTokens"> {
  /** Small token counts waiting for their batch: a call's two texts, or a read's answer. */
  const smallCounts: ({ callId: number; returned: string; given: string } | { eventId: number; text: string })[] = [];
  const charsOf = (c: (typeof smallCounts)[number]) => ("eventId" in c ? c.text.length : c.returned.length + c.given.length);
  /** Queues one small count; the first of a batch queues the task that counts them all, in one transaction. */
  const countSmall = (c: (typeof smallCounts)[number]) => {
    smallCounts.push(c);
    queue.charge(charsOf(c));
    if (smallCounts.length > 1) return;
    // Taken once and kept, so a retry after a busy lock writes the same batch.
    let batch: typeof smallCounts | null = null;
    queue.push(() => {
      if (batch === null) {
        batch = smallCounts.splice(0);
        queue.release(batch.reduce((n, c) => n + charsOf(c), 0));
      }
      if (!store.open) return;
      const counted = batch.map((c): (() => void) => {
        if ("eventId" in c) {
          const n = tokens.count(c.text);
          return () => ledger.setEventTokens(c.eventId, n);
        }
        const r = tokens.count(c.returned);
        const g = c.given === c.returned ? r : tokens.count(c.given);
        return () => ledger.setCallTokens(c.callId, r, g);
      });
      // IMMEDIATE: a deferred write transaction can fail at once on a lock another process took.
      store.transaction(() => {
        for (const write of counted) write();
      }, "immediate");
    });
  };

  return {
    countCallTokens(callId, returned, given) {
      // Always off the hot path: the agent's call returns before any token is counted. Small
      // calls are counted in batches, one transaction per batch.
      if (returned.length <= SMALL_CHARS && given.length <= SMALL_CHARS) {
        countSmall({ callId, returned, given });
        return;
      }
      queue.push(
        async () => {
          // Exact up to a size, estimated from a sample above it: a 50 MB result once cost 81 s of CPU.
          const r = await tokens.measure(returned);
          const g = given === returned ? r : await tokens.measure(given);
          if (store.open) ledger.setCallTokens(callId, r.tokens, g.tokens, r.estimated || g.estimated);
        },
        returned.length + (given === returned ? 0 : given.length),
      );
    },
    countReadTokens(eventId, text) {
      if (text.length <= SMALL_CHARS) {
        countSmall({ eventId, text });
        return;
      }
      queue.push(async () => {
        // Exact for any answer under the default caps (fetch.fullMaxChars, 50,000 chars). Only a cap
        // raised past EXACT_TOKEN_MAX_CHARS gets a sampled estimate here, which read events do not mark.
        const n = await tokens.measure(text);
        if (store.open) ledger.setEventTokens(eventId, n.tokens);
      }, text.length);
    },
  };
}

/** Rows a recount task reads at most. */
const RECOUNT_ROWS = 50;
/** Ids a recount task looks through at most, so a task never walks a whole table for a few rows. */
const RECOUNT_WINDOW = 2_000;
/** Chars a recount task counts before it lets the agents' calls go (one big text may pass it alone). */
const RECOUNT_CHARS = 256 * 1024;
/** Chars per token assumed for a text that is gone when nothing was counted yet to learn it from. */
const DEFAULT_CHARS_PER_TOKEN = 4;

/** The background recount of the counts an earlier process left missing. */
export interface TokenRecount {
  /** Starts the recount of the rows already in the store (later ones are this engine's own). */
  start(): void;
  /** Stops after the current batch and gives the recount back (the engine is closing). */
  stop(): void;
}

interface RecountRun {
  owner: string;
  last: { call: number; event: number };
  callAfter: number;
  eventAfter: number;
  claimed: boolean;
  /** Learnt from the calls counted exactly when a text gone first needs it. */
  charsPerToken: number | null;
  counted: { calls: number; reads: number; estimated: number };
}

/** Counts `found` in order until RECOUNT_CHARS of text have been read (a batch holds the thread that long at most). */
async function countWithin<R, N extends { chars: number }>(found: readonly R[], count: (row: R) => Promise<N>): Promise<N[]> {
  const counted: N[] = [];
  let chars = 0;
  for (const row of found) {
    if (chars >= RECOUNT_CHARS) break;
    const n = await count(row);
    counted.push(n);
    chars += n.chars;
  }
  return counted;
}

/** Where the next batch starts: past the window when it was read whole, else after the last row counted. */
function resumeAfter(found: readonly unknown[], counted: readonly { id: number }[], end: number): number {
  return counted.length === found.length && found.length < RECOUNT_ROWS ? end : counted.at(-1)!.id;
}

/**
 * Counts, from the texts the counts are defined on, the calls and reads whose counts are missing:
 * a result's exact text (its blob, else the call's kept raw text) and what the model was given (the
 * kept given text, else the result's model view); a read's kept answer. A text kept cut or masked
 * to another length is counted and scaled to the length the model saw, and a text that is gone is
 * estimated from its length; a call counted either way is marked estimated, so its figures show ≈.
 * One engine per store does it (a claim in the index); rows get counts only where none arrived.
 */
export function tokenRecount(
  queue: TaskQueue,
  store: BlobStore,
  tokens: TokenCounter,
  modelView: (text: string, tool: string) => string,
  logger: Logger,
): TokenRecount {
  const rows = storeUncountedTokens(store);
  let running: RecountRun | null = null;

  const fromLength = (chars: number, run: RecountRun): TokenMeasure => {
    if (chars === 0) return { tokens: 0, estimated: false };
    run.charsPerToken ??= rows.charsPerToken() ?? DEFAULT_CHARS_PER_TOKEN;
    return { tokens: Math.max(1, Math.round(chars / run.charsPerToken)), estimated: true };
  };
  /** The count of `text` as one of `chars` chars: scaled, and marked estimated, when the kept text is not that long. */
  const measureAs = async (text: string, chars: number, run: RecountRun): Promise<TokenMeasure> => {
    if (text.length === 0) return fromLength(chars, run);
    const m = await tokens.measure(text);
    if (text.length === chars) return m;
    return { tokens: Math.round((m.tokens * chars) / text.length), estimated: true };
  };
  const blobText = (id: string | null, chars: number): string | null => {
    if (id === null) return null;
    try {
      const t = store.read(id);
      return t !== null && t.length === chars ? t : null;
    } catch {
      return null; // damaged or sealed with a key gone: counted from what the ledger kept
    }
  };
  const countCall = async (c: UncountedCall, run: RecountRun) => {
    const exact = blobText(c.blob_id, c.returned_chars);
    const returnedText = exact ?? c.raw_text;
    const r = returnedText === null ? fromLength(c.returned_chars, run) : await measureAs(returnedText, c.returned_chars, run);
    // A pass-through keeps no given text: the model was given the result's own view.
    const givenText = c.given_text ?? (returnedText === null ? null : exact === null ? returnedText : modelView(exact, c.tool));
    const g =
      givenText === returnedText && c.given_chars === c.returned_chars
        ? r
        : givenText === null
          ? fromLength(c.given_chars, run)
          : await measureAs(givenText, c.given_chars, run);
    return {
      id: c.id,
      returned: r.tokens,
      given: g.tokens,
      estimated: r.estimated || g.estimated,
      chars: (returnedText?.length ?? 0) + (givenText?.length ?? 0),
    };
  };
  const countRead = async (e: UncountedRead, run: RecountRun) => {
    // Read events carry no estimate mark (see countReadTokens): a kept answer is the model's, masked.
    const m = e.text === null ? fromLength(e.chars, run) : await measureAs(e.text, e.chars, run);
    return { id: e.id, tokens: m.tokens, estimated: m.estimated, chars: e.text?.length ?? 0 };
  };

  /** One batch of calls or, once they are done, of reads: counted, then written in one transaction. */
  const step = (run: RecountRun): void => {
    // Computed once and kept, so a retry after a busy lock writes the same batch.
    let batch: { write: () => void; phase: "calls" | "reads"; after: number; calls: number; reads: number; estimated: number } | null =
      null;
    queue.push(async () => {
      if (running !== run || !store.open) return;
      if (!run.claimed) {
        if (!rows.claim(run.owner)) {
          running = null; // another engine (this process's or another's) is counting them
          return;
        }
        run.claimed = true;
      }
      if (batch === null)
        batch = run.callAfter < run.last.call ? await callBatch(run) : run.eventAfter < run.last.event ? await readBatch(run) : null;
      if (running !== run || !store.open) return;
      if (batch === null) return finish(run);
      const b = batch;
      store.transaction(b.write, "immediate");
      if (b.phase === "calls") run.callAfter = b.after;
      else run.eventAfter = b.after;
      run.counted.calls += b.calls;
      run.counted.reads += b.reads;
      run.counted.estimated += b.estimated;
      step(run);
    });
  };
  const callBatch = async (run: RecountRun) => {
    const end = Math.min(run.callAfter + RECOUNT_WINDOW, run.last.call);
    const found = rows.calls(run.callAfter, end, RECOUNT_ROWS);
    const counted = await countWithin(found, (c) => countCall(c, run));
    return {
      write: () => {
        for (const n of counted) rows.setCallTokens(n.id, n.returned, n.given, n.estimated);
      },
      phase: "calls" as const,
      after: resumeAfter(found, counted, end),
      calls: counted.length,
      reads: 0,
      estimated: counted.filter((n) => n.estimated).length,
    };
  };
  const readBatch = async (run: RecountRun) => {
    const end = Math.min(run.eventAfter + RECOUNT_WINDOW, run.last.event);
    const found = rows.reads(run.eventAfter, end, RECOUNT_ROWS);
    const counted = await countWithin(found, (e) => countRead(e, run));
    return {
      write: () => {
        for (const n of counted) rows.setReadTokens(n.id, n.tokens);
      },
      phase: "reads" as const,
      after: resumeAfter(found, counted, end),
      calls: 0,
      reads: counted.length,
      estimated: counted.filter((n) => n.estimated).length,
    };
  };
  const finish = (run: RecountRun) => {
    rows.release(run.owner);
    running = null;
    const { calls, reads, estimated } = run.counted;
    if (calls || reads) {
      logger.info("token counts an earlier process left missing were counted", {
        calls,
        reads,
        // Their text was gone, or kept cut or masked: estimated (calls show ≈).
        estimated,
      });
    }
  };

  return {
    start() {
      if (running || !store.open) return;
      try {
        // Read now, before this engine records anything: what comes after is counted by its own queue.
        const last = rows.lastIds();
        running = {
          owner: `${process.pid}:${randomUUID()}`,
          last,
          callAfter: 0,
          eventAfter: 0,
          claimed: false,
          charsPerToken: null,
          counted: { calls: 0, reads: 0, estimated: 0 },
        };
        step(running);
      } catch (err) {
        logger.error("the token recount could not start", { error: describeError(err) });
      }
    },
    stop() {
      const run = running;
      running = null;
      if (!run?.claimed || !store.open) return;
      try {
        rows.release(run.owner);
      } catch (err) {
        // Taken over by the next engine that opens the store, once this process is gone.
        logger.warn("giving the token recount back failed", { error: describeError(err) });
      }
    },
  };
}
