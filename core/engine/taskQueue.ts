/**
 * A queue of background tasks run one at a time, after the current turn of the event loop. Each
 * task declares the chars it holds (the texts its closure keeps alive); under sustained load the
 * queue can fall behind, so intake layers await `underBudget()` and slow down instead of letting
 * the backlog, and the memory it holds, grow without bound.
 */
import { describeError } from "../errors";
import type { Logger } from "../runtime";

interface Task {
  run: () => Promise<void> | void;
  weight: number;
}

/** Chars the queued (not yet running) tasks may hold before intake waits: 32 M chars. */
export const DEFAULT_BACKLOG_CHARS = 32 * 1024 * 1024;

export class TaskQueue {
  private readonly tasks: Task[] = [];
  private running = false;
  private waiters: (() => void)[] = [];
  private budgetWaiters: (() => void)[] = [];
  /** Chars held by tasks not yet started, plus charges taken with charge(). */
  private pending = 0;

  constructor(
    private readonly logger: Logger,
    private readonly budgetChars = DEFAULT_BACKLOG_CHARS,
  ) {}

  /** Queues a task that keeps `weight` chars alive until it starts. */
  push(task: () => Promise<void> | void, weight = 0): void {
    this.tasks.push({ run: task, weight });
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

  /** The chars the backlog holds now. */
  get backlogChars(): number {
    return this.pending;
  }

  /** Resolves at once, or when the backlog is back under its budget. */
  underBudget(): Promise<void> {
    if (this.pending <= this.budgetChars) return Promise.resolve();
    return new Promise((r) => this.budgetWaiters.push(r));
  }

  private wakeIfUnder(): void {
    if (this.pending > this.budgetChars || this.budgetWaiters.length === 0) return;
    const w = this.budgetWaiters;
    this.budgetWaiters = [];
    for (const r of w) r();
  }

  private async drain(): Promise<void> {
    while (this.tasks.length) {
      const task = this.tasks.shift()!;
      // A running task's texts are in use either way; only what waits behind it is backlog.
      this.release(task.weight);
      try {
        await task.run();
      } catch (err) {
        this.logger.warn("background task failed", { error: describeError(err) });
      }
      await new Promise<void>((r) => setImmediate(r));
    }
    this.running = false;
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }

  idle(): Promise<void> {
    if (!this.running && this.tasks.length === 0) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }
}
