// When a crash takes the index's WAL (the rows of the last writes), the blob files are still
// whole: doctor reports them as recoverable, and a sweep registers them again instead of
// deleting them as garbage.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { readdirSync, statSync, truncateSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli, spawnScript } from "./children";

const WRITER = join(import.meta.dirname, "writer.ts");

describe("index loss", () => {
  it("after a kill and a truncated WAL, doctor reports the blob files recoverable and sweep registers them, byte-exact", async () => {
    const home = tempHome();
    const w = spawnScript(WRITER, [home.path, "wal", "6", "hold"]);
    await w.line(/^holding$/);
    w.child.kill("SIGKILL");
    expect((await w.done).signal).toBe("SIGKILL");
    // "<outcome> <id> <chars> <sha256>": six distinct results
    const results = w
      .lines()
      .filter((l) => l.startsWith("rescued "))
      .map((l) => l.split(" "));
    expect(results).toHaveLength(6);

    const wal = join(home.path, "index.sqlite-wal");
    expect(statSync(wal).size).toBeGreaterThan(0);
    truncateSync(wal, 0);
    const db = new Database(join(home.path, "index.sqlite"), { readonly: true, fileMustExist: true });
    expect(db.prepare("SELECT COUNT(*) FROM blobs").pluck().get()).toBe(0); // the rows went with the WAL
    db.close();
    // ten minutes pass (files younger than that may be a write in progress elsewhere)
    const files = readdirSync(join(home.path, "blobs"), { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(files).toHaveLength(6);
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    for (const f of files) utimesSync(join(f.parentPath, f.name), hourAgo, hourAgo);

    const doctor = await runCli(home.path, "doctor");
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(/FAIL\s+recovery\s+6 recoverable files match their ids but have no row/);

    const swept = await runCli(home.path, "sweep");
    expect(swept.code, swept.err).toBe(0);
    expect(swept.out).toMatch(/6 recovered/);
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    for (const [, id, chars, sha] of results) {
      expect(engine.fetch({ sessionId: null, id, mode: "stat" }).text).toMatch(/unknown \(recovered\)/);
      const bytes = engine.reader.readRange(id!, 0, 1 << 30)!.bytes;
      expect(bytes.length).toBe(Number(chars)); // ASCII: one byte per char
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(sha);
    }
    await engine.close();
    const healthy = await runCli(home.path, "doctor");
    expect(healthy.out).toMatch(/ok\s+blobs\s+6 live blobs match their ids/);
    expect(healthy.code, healthy.out).toBe(0);
    home.cleanup();
  }, 120_000);
});
