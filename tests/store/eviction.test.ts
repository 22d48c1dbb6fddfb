// Eviction tombstones rows in a transaction and deletes their files only after it commits: a
// process killed between the tombstone and the commit leaves every live row with its file.
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli, spawnScript } from "./children";

const EVICTOR = join(import.meta.dirname, "evictor.ts");

describe("eviction and kills", () => {
  it("a SIGKILL between a tombstone and its commit leaves the row live and its file in place", async () => {
    const home = tempHome();
    const child = spawnScript(EVICTOR, [home.path]);
    // the child stops dead inside the eviction transaction, right after the first tombstone
    const line = await child.line(/^tombstoned [0-9a-f]{12}$/);
    const victim = line.split(" ")[1]!;
    child.child.kill("SIGKILL");
    expect((await child.done).signal).toBe("SIGKILL");
    const written = child
      .lines()
      .filter((l) => l.startsWith("rescued "))
      .map((l) => l.split(" ")[1]!);
    expect(written.length).toBeGreaterThan(2); // the cap (1 MB) was crossed by these ~0.3 MB results

    // the tombstone was never committed: the blob is live, and its file is still there
    const db = new Database(join(home.path, "index.sqlite"), { readonly: true, fileMustExist: true });
    const live = db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").pluck().all() as string[];
    db.close();
    expect(live).toContain(victim);
    // every acknowledged result is live, the one whose commit crossed the cap included: eviction
    // runs after the call is answered
    for (const id of written) expect(live).toContain(id);
    expect(live).toHaveLength(written.length);
    for (const id of live) expect(existsSync(join(home.path, "blobs", id.slice(0, 2), id)), `live row ${id} lost its file`).toBe(true);

    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    expect(engine.reader.readRange(victim, 0, 20)!.bytes.toString("utf8")).toMatch(/^result \d+\nrow \d+/);
    expect(engine.fetch({ sessionId: "evictor", id: victim, mode: "range", args: { start: 0, count: 2 } }).isError).toBe(false);
    await engine.close();
    // doctor reads every live blob back against its id, and finds nothing wrong
    const doctor = await runCli(home.path, "doctor");
    expect(doctor.out).toMatch(new RegExp(`ok\\s+blobs\\s+${live.length} live blobs match their ids`));
    expect(doctor.code, doctor.out).toBe(0);
    home.cleanup();
  }, 120_000);
});
