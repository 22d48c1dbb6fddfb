// A process killed mid-write must leave no partial blob and no row pointing at a missing file;
// two processes writing one home at once must lose nothing.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createEngine, engineInternals } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { rng } from "../fixtures/seededRandom";
import { spawnScript } from "./children";

const WRITER = join(import.meta.dirname, "writer.ts");

function runWriter(home: string, tag: string, count?: number) {
  return spawnScript(WRITER, [home, tag, ...(count ? [String(count)] : [])]);
}

/** Every live row has a file whose content hashes back to the row's id; nothing partial. */
function verify(home: string) {
  const engine = createEngine({ home, logger: memoryLogger() });
  const rows = engineInternals(engine).store.db.prepare("SELECT id, chars FROM blobs WHERE tombstoned_at IS NULL").all() as {
    id: string;
    chars: number;
  }[];
  for (const r of rows) {
    const text = engineInternals(engine).store.read(r.id);
    expect(text, `row ${r.id} points at a missing file`).not.toBeNull();
    expect(text!.length).toBe(r.chars);
    expect(engineInternals(engine).store.idFor(text!)).toBe(r.id);
  }
  // every file at a final name is complete (its content hashes to its name)
  const blobs = join(home, "blobs");
  for (const shard of readdirSync(blobs)) {
    for (const name of readdirSync(join(blobs, shard))) {
      if (!/^[0-9a-f]{12}$/.test(name)) continue;
      const row = engineInternals(engine).store.row(name);
      if (!row) continue; // an orphan written just before the kill: complete, swept later
      expect(engineInternals(engine).store.idFor(engineInternals(engine).store.read(name)!)).toBe(name);
    }
  }
  return { engine, rows };
}

describe("crash safety", () => {
  it("survives 20 SIGKILLs mid-write with no partial blob and no dangling row, and reopens cleanly", async () => {
    const home = tempHome();
    // Seeded: each run kills at the same offsets (where that lands in the writer still depends on scheduling).
    const random = rng(20_260_101);
    let written = 0;
    for (let round = 0; round < 20; round++) {
      const w = runWriter(home.path, `r${round}`);
      // let it get going, then kill it at a random point inside its write loop
      await w.line(/./);
      await new Promise<void>((resolve) => setTimeout(resolve, random() * 120));
      w.child.kill("SIGKILL");
      const { signal } = await w.done;
      expect(signal).toBe("SIGKILL");
      written += w.lines().length;
    }
    expect(written).toBeGreaterThan(20);
    const { engine, rows } = verify(home.path);
    expect(rows.length).toBeGreaterThan(0);
    const report = engine.sweep(true);
    expect(report.repairedRows).toBe(0);
    await engine.close();
    home.cleanup();
  }, 180_000);

  it("two processes write and read one home at once without loss", async () => {
    const home = tempHome();
    const a = runWriter(home.path, "A", 12);
    const b = runWriter(home.path, "B", 12);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, a.stderr()).toBe(0);
    expect(rb.code, b.stderr()).toBe(0);
    const { engine } = verify(home.path);
    for (const line of [...a.lines(), ...b.lines()]) {
      const [, id, chars] = line.split(" ");
      expect(engineInternals(engine).store.meta(id!)?.chars).toBe(Number(chars));
    }
    expect(a.lines()).toHaveLength(12);
    expect(b.lines()).toHaveLength(12);
    // both writers' sessions are in the one index
    expect(engine.reader.session("writer-A")).toBeDefined();
    expect(engine.reader.session("writer-B")).toBeDefined();
    await engine.close();
    home.cleanup();
  }, 180_000);
});
