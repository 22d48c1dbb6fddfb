import { memoryLogger } from "../runtime";
import { TaskQueue } from "./taskQueue";

describe("TaskQueue: the backlog's memory budget", () => {
  it("lets intake through under the budget and holds it while queued tasks hold more", async () => {
    const q = new TaskQueue(memoryLogger(), 100);
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
    const q = new TaskQueue(memoryLogger(), 100);
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
