import { memoryLogger } from "../runtime";
import { isBusyError, TaskQueue } from "./taskQueue";

const busy = (code = "SQLITE_BUSY") => Object.assign(new Error("database is locked"), { code });

describe("TaskQueue", () => {
  it("runs a task again after a busy lock, with growing waits, until it succeeds", async () => {
    const logger = memoryLogger();
    const waits: number[] = [];
    const q = new TaskQueue(logger, { sleep: async (ms) => void waits.push(ms), backoffMs: [10, 20, 40] });
    let attempts = 0;
    let done = false;
    q.push(() => {
      attempts++;
      if (attempts < 3) throw busy(attempts === 1 ? "SQLITE_BUSY_SNAPSHOT" : "SQLITE_BUSY");
      done = true;
    });
    await q.idle();
    expect(done).toBe(true);
    expect(attempts).toBe(3);
    expect(waits).toEqual([10, 20]);
    expect(logger.entries.filter((e) => e.level !== "info")).toEqual([]);
  });

  it("logs a task that stays locked past its retries, and one that fails otherwise, and goes on", async () => {
    const logger = memoryLogger();
    const q = new TaskQueue(logger, { sleep: async () => {}, backoffMs: [1, 1] });
    let lockedRuns = 0;
    let after = false;
    q.push(() => {
      lockedRuns++;
      throw busy();
    });
    q.push(() => {
      throw new Error("not a lock");
    });
    q.push(() => void (after = true));
    await q.idle();
    expect(lockedRuns).toBe(3);
    expect(after).toBe(true);
    expect(logger.entries.filter((e) => e.level === "warn").map((e) => [e.msg, e.data?.attempts])).toEqual([
      ["background task failed", 3],
      ["background task failed", 1],
    ]);
  });

  it("runs a task queued first ahead of those waiting, after the one running", async () => {
    const q = new TaskQueue(memoryLogger());
    const ran: string[] = [];
    q.push(async () => {
      ran.push("running");
      q.push(() => void ran.push("urgent"), 0, true);
    });
    q.push(() => void ran.push("a"));
    q.push(() => void ran.push("b"));
    await q.idle();
    expect(ran).toEqual(["running", "urgent", "a", "b"]);
  });

  it("knows SQLite's lock errors from others", () => {
    expect(isBusyError(busy("SQLITE_BUSY"))).toBe(true);
    expect(isBusyError(busy("SQLITE_LOCKED_SHAREDCACHE"))).toBe(true);
    expect(isBusyError(busy("SQLITE_CONSTRAINT"))).toBe(false);
    expect(isBusyError(new Error("x"))).toBe(false);
    expect(isBusyError(null)).toBe(false);
  });
});

describe("TaskQueue: the backlog's memory budget", () => {
  it("lets intake through under the budget and holds it while queued tasks hold more", async () => {
    const q = new TaskQueue(memoryLogger(), { budgetChars: 100 });
    await q.underBudget();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.push(() => gate, 10); // running: its texts are in use either way
    q.push(() => {}, 60);
    q.push(() => {}, 60);
    expect(q.backlogChars).toBe(130);
    let through = false;
    const waiting = q.underBudget().then(() => (through = true));
    await new Promise((r) => setImmediate(r));
    expect(through).toBe(false);
    release();
    await waiting;
    expect(q.backlogChars).toBeLessThanOrEqual(100);
    await q.idle();
    expect(q.backlogChars).toBe(0);
  });

  it("counts charges taken for a batch until they are released", async () => {
    const q = new TaskQueue(memoryLogger(), { budgetChars: 100 });
    q.charge(150);
    let through = false;
    const waiting = q.underBudget().then(() => (through = true));
    await new Promise((r) => setImmediate(r));
    expect(through).toBe(false);
    q.release(150);
    await waiting;
    expect(through).toBe(true);
  });
});
