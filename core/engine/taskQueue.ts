/** A queue of background tasks run one at a time, after the current turn of the event loop. */
import { describeError } from "../errors";
import type { Logger } from "../runtime";

/**
 * Waits before each retry of a task that found the index locked by another process. SQLite's
 * busy timeout already waits for a held lock; these cover what it cannot wait out (a snapshot
 * gone stale under a concurrent write, a lock held past the timeout). About 13 s in all.
 */
const BUSY_BACKOFF_MS = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400];

/** True for SQLite's "database is locked" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED…). */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

export interface TaskQueueOptions {
  /** How the queue waits between retries; tests pass one that resolves at once. */
  sleep?: (ms: number) => Promise<void>;
  backoffMs?: readonly number[];
}

export class TaskQueue {
  private readonly tasks: (() => Promise<void> | void)[] = [];
  private running = false;
  private waiters: (() => void)[] = [];
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly backoff: readonly number[];

  constructor(
    private readonly logger: Logger,
    opts: TaskQueueOptions = {},
  ) {
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.backoff = opts.backoffMs ?? BUSY_BACKOFF_MS;
  }

  /** Queues a task. A task that hits a busy lock is run again (it must be safe to repeat); other failures are logged. */
  push(task: () => Promise<void> | void): void {
    this.tasks.push(task);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.tasks.length) {
      await this.run(this.tasks.shift()!);
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
