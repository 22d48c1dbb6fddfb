/**
 * A queue of background tasks run one at a time, after the current turn of the event loop. Each
 * task declares the chars it holds (the texts its closure keeps alive); under sustained load the
 * queue can fall behind, so intake layers await `underBudget()` and slow down instead of letting
 * the backlog, and the memory it holds, grow without bound.
 */
import { describeError } from "../errors";
import type { Logger } from "../runtime";

/**
 * Waits before each retry of a task that found the index locked by another process. SQLite's
 * busy timeout already waits for a held lock; these cover what it cannot wait out (a snapshot
 * gone stale under a concurrent write, a lock held past the timeout). About 13 s in all.
 */
const BUSY_BACKOFF_MS = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400];

/** Chars the queued (not yet running) tasks may hold before intake waits: 64 M chars (a few 10 MB results back to back pass without waiting). */
export const DEFAULT_BACKLOG_CHARS = 64 * 1024 * 1024;

/** True for SQLite's "database is locked" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED…). */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

export interface TaskQueueOptions {
  /** How the queue waits between retries; tests pass one that resolves at once. */
  sleep?: (ms: number) => Promise<void>;
  backoffMs?: readonly number[];
  /** Chars the backlog may hold before underBudget() waits (default DEFAULT_BACKLOG_CHARS). */
  budgetChars?: number;
}

interface Task {
  run: () => Promise<void> | void;
  weight: number;
}

export class TaskQueue {
  private readonly tasks: Task[] = [];
  private running = false;
  private waiters: (() => void)[] = [];
  private budgetWaiters: (() => void)[] = [];
  /** Chars held by tasks not yet started, plus charges taken with charge(). */
  private pending = 0;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly backoff: readonly number[];
  private readonly budget: number;

  constructor(
    private readonly logger: Logger,
    opts: TaskQueueOptions = {},
  ) {
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.backoff = opts.backoffMs ?? BUSY_BACKOFF_MS;
    this.budget = opts.budgetChars ?? DEFAULT_BACKLOG_CHARS;
  }

  /**
   * Queues a task that keeps `weight` chars alive until it starts; `first`: ahead of the tasks
   * waiting (something is answered less well until it runs). A task that hits a busy lock is
   * run again (it must be safe to repeat); other failures are logged.
   */
  push(task: () => Promise<void> | void, weight = 0, first = false): void {
    if (first) this.tasks.unshift({ run: task, weight });
    else this.tasks.push({ run: task, weight });
    this.pending += weight;
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Counts chars held outside a task's closure (a batch being filled); give them back with release(). */
  charge(chars: number): void {
    this.pending += chars;
  }

  release(chars: number): void {
    this.pending -= chars;
    this.wakeIfUnder();
  }

  /** Tasks waiting, plus the one running. */
  get size(): number {
    return this.tasks.length + (this.running ? 1 : 0);
  }

  /** The chars the backlog holds now. */
  get backlogChars(): number {
    return this.pending;
  }

  /** Resolves at once, or when the backlog is back under its budget. */
  underBudget(): Promise<void> {
    if (this.pending <= this.budget) return Promise.resolve();
    return new Promise((r) => this.budgetWaiters.push(r));
  }

  private wakeIfUnder(): void {
    if (this.pending > this.budget || this.budgetWaiters.length === 0) return;
    const w = this.budgetWaiters;
    this.budgetWaiters = [];
    for (const r of w) r();
  }

  private async drain(): Promise<void> {
    while (this.tasks.length) {
      const task = this.tasks.shift()!;
      // A running task's texts are in use either way; only what waits behind it is backlog.
      this.release(task.weight);
      await this.run(task.run);
      await new Promise<void>((r) => setImmediate(r));
    }
    this.running = false;
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }

  private async run(task: () => Promise<void> | void): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await task();
        if (attempt > 0) this.logger.info("background task done after a busy lock", { attempts: attempt + 1 });
        return;
      } catch (err) {
        if (isBusyError(err) && attempt < this.backoff.length) {
          if (attempt === 0) this.logger.info("background task found the index locked; retrying", { code: (err as { code: string }).code });
          await this.sleep(this.backoff[attempt]!);
          continue;
        }
        this.logger.warn("background task failed", { error: describeError(err), attempts: attempt + 1 });
        return;
      }
    }
  }

  /** Resolves when every queued task has run (retries included). */
  idle(): Promise<void> {
    if (!this.running && this.tasks.length === 0) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }
}
