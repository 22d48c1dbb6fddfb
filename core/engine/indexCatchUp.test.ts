import { tempHome } from "../../tests/helpers/tempHome";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { createEngine, engineInternals, type Engine } from "./engine";

function log(seed: string, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`[${seed}] step ${i}: compiled src/${seed}/mod${i}.ts`);
  out.push(`[${seed}] ERROR: ${seed}quux checksum mismatch`);
  return out.join("\n") + "\n";
}

describe("results an earlier process stored and never indexed (killed with indexing queued)", () => {
  const homes: ReturnType<typeof tempHome>[] = [];
  afterEach(() => {
    for (const h of homes.splice(0)) h.cleanup();
  });
  const open = (home: string, catchUpIndex: boolean, logger = memoryLogger()) =>
    createEngine({ home, config: parseConfig({}), clock: new FakeClock(), logger, catchUpIndex });
  const SEEDS = Array.from({ length: 120 }, (_, i) => `r${String(i).padStart(3, "0")}`);

  /** 120 rescued results (more than a page), the store closed before any indexing ran, as a kill leaves it. */
  async function killedRun(): Promise<string> {
    const h = tempHome();
    homes.push(h);
    const e = open(h.path, false);
    for (const s of SEEDS) e.transformToolResult({ sessionId: "s", tool: "build", args: { s }, text: log(s, 900) });
    // What serve's stop message counts: the indexing (and counts) still queued.
    expect(e.backgroundTasks()).toBeGreaterThanOrEqual(SEEDS.length);
    const { store } = engineInternals(e);
    await store.flushed();
    store.close();
    await e.close();
    return h.path;
  }
  const found = (e: Engine, seed: string) => e.search(`${seed}quux`).length > 0;

  it("stay out of search for a one-shot engine", async () => {
    const home = await killedRun();
    const e = open(home, false);
    await e.idle();
    // The queue may have run a task or two while the files were flushed; the rest never ran.
    const left = e.unindexedBlobs();
    expect(left).toBeGreaterThan(100);
    expect(SEEDS.filter((s) => !found(e, s))).toHaveLength(left);
    await e.close();
  });

  it("are indexed in the background when a server opens the store, every one found by search after", async () => {
    const home = await killedRun();
    const logger = memoryLogger();
    const e = open(home, true, logger);
    await e.idle();
    expect(e.unindexedBlobs()).toBe(0);
    expect(SEEDS.filter((s) => !found(e, s))).toEqual([]);
    expect(logger.entries.map((l) => l.msg)).toContain("results an earlier process left out of the search index were indexed");
    await e.close();
    // Nothing left to do: the next server logs nothing about it.
    const quiet = memoryLogger();
    const again = open(home, true, quiet);
    await again.idle();
    expect(quiet.entries.map((l) => l.msg).filter((m) => m.includes("search index"))).toEqual([]);
    await again.close();
  });

  it("leave purged results out, and a closing engine stops the run", async () => {
    const home = await killedRun();
    const purger = open(home, false);
    const { store } = engineInternals(purger);
    const victim = (
      store.db
        .prepare("SELECT id FROM blobs WHERE id NOT IN (SELECT blob_id FROM search_blobs WHERE complete = 1) ORDER BY id LIMIT 1")
        .get() as { id: string }
    ).id;
    expect(purger.purge(victim)).toBe(true);
    await purger.close();
    const e = open(home, true);
    await e.idle();
    expect(e.unindexedBlobs()).toBe(0);
    expect(SEEDS.filter((s) => !found(e, s))).toHaveLength(1);
    await e.close();
    // Closed at once: the engine closes without indexing the rest, and a later one finishes.
    const home2 = await killedRun();
    const early = open(home2, true);
    await early.close();
    const check = open(home2, false);
    expect(check.unindexedBlobs()).toBeGreaterThan(100);
    await check.close();
    const later = open(home2, true);
    await later.idle();
    expect(later.unindexedBlobs()).toBe(0);
    await later.close();
  });
});
