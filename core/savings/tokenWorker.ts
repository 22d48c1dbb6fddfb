/**
 * Token counts on a worker thread. The tokenizer's tables load there, not on the thread that
 * answers the agent's calls (140-230 ms after each process's first result, during which a call
 * waited), and counting a result's slices takes none of that thread's time. One per process and
 * tokenizer, shared by its engines, started on the first count (an idle `spillway mcp` holds
 * none), and never holding the process open while it waits for work.
 */
import { Worker } from "node:worker_threads";

/**
 * The worker's code, CommonJS so it runs as given (`eval`) from the CLI bundle and from tsx
 * alike. Tool output is data: special-token text counts as ordinary text, as in tokens.ts.
 */
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const encoding = require(workerData.encodingPath);
const options = { disallowedSpecial: new Set() };
parentPort.on("message", ({ id, pieces }) => {
  try {
    parentPort.postMessage({ id, counts: pieces.map((p) => (p.length === 0 ? 0 : encoding.countTokens(p, options))) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** The counts of a request; `error` says why they were made in-thread instead (the worker failed). */
export interface PieceCounts {
  counts: number[];
  error?: string;
}

interface Pending {
  pieces: string[];
  resolve: (r: PieceCounts) => void;
}

const shared = new Map<string, TokenWorker>();
/** A worker with nothing to count for this long is stopped. */
const IDLE_MS = 60_000;

/** The process's worker for the tokenizer module at `encodingPath`; `inThread` counts a piece when the worker cannot. */
export function sharedTokenWorker(encodingPath: string, inThread: (piece: string) => number): TokenWorker {
  let w = shared.get(encodingPath);
  if (!w) shared.set(encodingPath, (w = new TokenWorker(encodingPath, inThread)));
  return w;
}

export class TokenWorker {
  private worker: Worker | null = null;
  /** Why the worker failed, once it has: every count from then on is made in-thread. */
  private broken: string | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Stops an idle worker, giving its memory back (about 15 MB, and the tables); the next count starts another. */
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * `encodingPath`: the tokenizer module the worker requires. `inThread`: how a piece is counted
   * when no worker can be had (it failed to start, crashed or was stopped): nothing is lost.
   */
  constructor(
    private readonly encodingPath: string,
    private readonly inThread: (piece: string) => number,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Whether a worker thread is up (started, and not stopped for idleness or failure). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** The token count of each piece, in order. Never rejects: without a worker they are counted in-thread. */
  count(pieces: string[]): Promise<PieceCounts> {
    const worker = this.broken === null ? this.start() : null;
    if (!worker) return Promise.resolve(this.counted(pieces, this.broken ?? "no worker"));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { pieces, resolve });
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, pieces });
    });
  }

  /** Stops the worker for good; counts still pending, and all later ones, are made in-thread. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = null;
    this.broken ??= "the token-count worker was stopped";
    this.settleInThread(this.broken);
    if (w) await w.terminate();
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    try {
      const w = new Worker(SOURCE, { eval: true, workerData: { encodingPath: this.encodingPath } });
      // Only waiting counts keep the process alive: an idle worker never does.
      w.unref();
      w.on("message", (m: { id: number; counts?: number[]; error?: string }) => this.answered(m));
      w.on("error", (err) => this.fail(`the token-count worker failed: ${err.message}`));
      w.on("exit", (code) => {
        if (this.worker === w) this.fail(`the token-count worker exited (code ${code})`);
      });
      this.worker = w;
      return w;
    } catch (err) {
      this.fail(`the token-count worker could not start: ${(err as Error).message}`);
      return null;
    }
  }

  private answered(m: { id: number; counts?: number[]; error?: string }): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (this.pending.size === 0 && this.worker) {
      this.worker.unref();
      this.idleTimer = setTimeout(() => this.stopIdle(), this.idleMs).unref();
    }
    if (m.counts && m.counts.length === p.pieces.length) p.resolve({ counts: m.counts });
    else p.resolve(this.counted(p.pieces, `the token-count worker could not count: ${m.error ?? "a malformed answer"}`));
  }

  private stopIdle(): void {
    this.idleTimer = null;
    const w = this.worker;
    if (!w || this.pending.size > 0) return;
    this.worker = null;
    void w.terminate();
  }

  private fail(message: string): void {
    if (this.broken !== null) return;
    this.broken = message;
    const w = this.worker;
    this.worker = null;
    void w?.terminate();
    this.settleInThread(message);
  }

  private settleInThread(error: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.resolve(this.counted(p.pieces, error));
  }

  private counted(pieces: string[], error: string): PieceCounts {
    return { counts: pieces.map(this.inThread), error };
  }
}
