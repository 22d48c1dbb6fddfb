import Database from "better-sqlite3";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { main } from "../cli/main";
import { createEngine, engineInternals, type Engine } from "./engine";

function bigLog(seed: string, lines = 800): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(i === 400 ? `[${seed}] ERROR: disk full` : `[${seed}] step ${i}: compiled src/mod${i}.ts in ${i % 97} ms`);
  return out.join("\n") + "\n";
}

const COUNTED = "token counts an earlier process left missing were counted";

describe("token counts an earlier process was killed before writing", () => {
  const homes: ReturnType<typeof tempHome>[] = [];
  afterEach(() => {
    for (const h of homes.splice(0)) h.cleanup();
  });
  const newHome = () => {
    const h = tempHome();
    homes.push(h);
    return h.path;
  };
  const open = (home: string, recountTokens = false, logger = memoryLogger()) =>
    createEngine({ home, config: parseConfig({}), clock: new FakeClock(), logger, recountTokens });

  /** The same agent work in every home: rescues (big and over the batch size), a stub, pass-throughs, a failure, reads. */
  function work(e: Engine): { blobIds: string[] } {
    const a = e.transformToolResult({ sessionId: "s", tool: "build", args: { target: "all" }, text: bigLog("a") });
    const b = e.transformToolResult({ sessionId: "s", tool: "test", text: bigLog("b", 3_000) });
    e.transformToolResult({ sessionId: "s", tool: "build", args: { target: "all" }, text: bigLog("a") });
    e.transformToolResult({ sessionId: "s", tool: "echo", text: "hello from a small tool" });
    e.transformToolResult({ sessionId: "t", tool: "ls", text: "src\ntests\nREADME.md\n" });
    e.recordFailedCall({ sessionId: "t", tool: "deploy", server: "ops", args: {}, message: "deploy failed: host unreachable" });
    e.fetch({ sessionId: "s", id: a.blobId, mode: "grep", args: { pattern: "ERROR" } });
    e.fetch({ sessionId: "s", id: a.blobId, mode: "full" });
    e.recall("s", a.blobId);
    return { blobIds: [a.blobId!, b.blobId!] };
  }

  /** A run that ends normally (every count written), its figures, and a copy of its home with the counts missing, as a kill leaves them. */
  async function cleanRun() {
    const home = newHome();
    const e = open(home);
    const { blobIds } = work(e);
    await e.close();
    const clean = open(home);
    const expected = figures(clean);
    await clean.close();
    const killed = newHome();
    cpSync(home, killed, { recursive: true });
    const db = new Database(join(killed, "index.sqlite"));
    db.exec(`UPDATE calls SET returned_tokens = NULL, given_tokens = NULL, tokens_estimated = 0;
      UPDATE events SET tokens = NULL WHERE id IN (SELECT event_id FROM event_texts) AND type IN ('fetch', 'recall') AND tokens > 0`);
    db.close();
    return { expected, killed, blobIds };
  }

  /** A run killed with its counts still queued: the index is left as a kill -9 leaves it. */
  async function killedRun() {
    const home = newHome();
    const e = open(home);
    const { blobIds } = work(e);
    const { store } = engineInternals(e);
    await store.flushed();
    store.close(); // the queued counts find the store gone, as after a kill
    await e.close();
    return { home, blobIds };
  }

  const figures = (e: Engine) => ({ total: e.savings("total"), tool: e.savings("tool"), session: e.savings("session") });
  const missing = (home: string) => {
    const db = new Database(join(home, "index.sqlite"), { readonly: true });
    try {
      return db
        .prepare(
          `SELECT (SELECT COUNT(*) FROM calls WHERE returned_tokens IS NULL OR given_tokens IS NULL) AS calls,
             (SELECT COUNT(*) FROM events WHERE type IN ('fetch', 'recall') AND tokens IS NULL) AS reads`,
        )
        .get() as { calls: number; reads: number };
    } finally {
      db.close();
    }
  };

  it("are missing after a kill, and a one-shot engine (no recount) leaves them so", async () => {
    const { home } = await killedRun();
    expect(missing(home)).toEqual({ calls: 6, reads: 3 });
    const oneShot = open(home);
    await oneShot.idle();
    expect(missing(home)).toEqual({ calls: 6, reads: 3 });
    await oneShot.close();
  });

  it("are named by spillway status as not counted yet until a server counts them, not shown as an exact figure", async () => {
    const { home } = await killedRun();
    const status = async () => {
      let out = "";
      expect(await main(["status", "--home", home], { out: (l) => (out += l + "\n"), err: () => undefined })).toBe(0);
      return out;
    };
    const before = await status();
    expect(before).toMatch(/^saved {5}≈/m);
    expect(before).toContain(
      "≈: 6 calls are not counted in tokens yet (counted in the background by a running serve, spillway mcp or the app)",
    );
    const e = open(home, true);
    await e.idle();
    await e.close();
    const after = await status();
    expect(after).not.toContain("not counted in tokens yet");
    expect(after).toMatch(/^saved {5}[0-9]/m);
  });

  it("are counted when the next engine opens the store, and the savings match a run that was not killed", async () => {
    const { home } = await killedRun();
    const logger = memoryLogger();
    const e = open(home, true, logger);
    // A call of its own meanwhile is counted by its own queue.
    e.transformToolResult({ sessionId: "u", tool: "cat", text: bigLog("c") });
    await e.idle();
    expect(missing(home)).toEqual({ calls: 0, reads: 0 });
    expect(e.savings("total")[0]).toMatchObject({ pendingTokenCounts: 0, estimatedTokenCounts: 0 });
    expect(logger.entries.find((l) => l.msg === COUNTED)?.data).toEqual({ calls: 6, reads: 3, estimated: 0 });
    await e.close();
  });

  it("give the figures of a run that was not killed", async () => {
    const { expected, killed } = await cleanRun();
    expect(expected.total[0]).toMatchObject({ pendingTokenCounts: 0, estimatedTokenCounts: 0 });
    expect(expected.total[0]!.pulledTokens).toBeGreaterThan(5_000);
    expect(missing(killed)).toEqual({ calls: 6, reads: 3 });
    const e = open(killed, true);
    await e.idle();
    expect(missing(killed)).toEqual({ calls: 0, reads: 0 });
    expect(figures(e)).toEqual(expected);
    await e.close();
  });

  it("estimates, and marks as estimated, a count whose text is gone (its blob purged since)", async () => {
    const { expected, killed, blobIds } = await cleanRun();
    const exact = expected.tool.find((r) => r.key === "test")!;
    const purger = open(killed);
    expect(purger.purge(blobIds[1]!)).toBe(true);
    await purger.close();

    const e = open(killed, true);
    await e.idle();
    expect(missing(killed)).toEqual({ calls: 0, reads: 0 });
    const test = e.savings("tool").find((r) => r.key === "test")!;
    // Its result is gone: estimated from its length, and said so (≈), not shown as exact.
    expect(test).toMatchObject({ estimatedTokenCounts: 1, pendingTokenCounts: 0, givenTokens: exact.givenTokens });
    expect(test.returnedTokens).toBeGreaterThan(exact.returnedTokens * 0.5);
    expect(test.returnedTokens).toBeLessThan(exact.returnedTokens * 2);
    expect(e.savings("total")[0]!.estimatedTokenCounts).toBe(1);
    // The others were counted from their texts, as before.
    expect(e.savings("tool").filter((r) => r.key !== "test")).toEqual(expected.tool.filter((r) => r.key !== "test"));
    await e.close();
  });

  it("is done by one engine when two open the same store at once", async () => {
    const { expected, killed } = await cleanRun();
    const [l1, l2] = [memoryLogger(), memoryLogger()];
    const e1 = open(killed, true, l1);
    const e2 = open(killed, true, l2);
    await Promise.all([e1.idle(), e2.idle()]);
    expect(missing(killed)).toEqual({ calls: 0, reads: 0 });
    const counted = [...l1.entries, ...l2.entries].filter((l) => l.msg === COUNTED);
    expect(counted.map((l) => l.data)).toEqual([{ calls: 6, reads: 3, estimated: 0 }]);
    expect(figures(e2)).toEqual(expected);
    await Promise.all([e1.close(), e2.close()]);

    // The claim was given back: a later engine finds nothing left and says nothing.
    const l3 = memoryLogger();
    const e3 = open(killed, true, l3);
    await e3.idle();
    expect(l3.entries.filter((l) => l.msg === COUNTED)).toEqual([]);
    await e3.close();
  });
});
