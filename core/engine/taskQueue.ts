/** A queue of background tasks run one at a time, after the current turn of the event loop. */
import { describeError } from "../errors";
import type { Logger } from "../runtime";

export class TaskQueue {
  private readonly tasks: (() => Promise<void> | void)[] = [];
  private running = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly logger: Logger) {}

  push(task: () => Promise<void> | void): void {
    this.tasks.push(task);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
  }

  private async drain(): Promise<void> {
    while (this.tasks.length) {
      const task = this.tasks.shift()!;
      try {
        await task();
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
