// A damaged index must not cost the stored results: doctor names the way out, `doctor --repair`
// sets the index aside, carries over what can still be read of it (which session holds which
// result, so an agent's handles keep working) and registers every blob file again, byte-exact.
import Database from "better-sqlite3";
import { closeSync, existsSync, openSync, readdirSync, rmSync, utimesSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";
import { startServe } from "../hosts/support/spillwayProcess";

/** Stores `n` distinct results over two sessions; returns their ids and texts. */
async function fill(home: string, n = 6, age = true): Promise<{ id: string; session: string; text: string }[]> {
  const engine = createEngine({ home, logger: memoryLogger() });
  const out: { id: string; session: string; text: string }[] = [];
  for (let i = 0; i < n; i++) {
    const session = i % 2 ? "agent-b" : "agent-a";
    const text = Array.from({ length: 900 }, (_, k) => `result ${i} line ${k}: build step ${k * 7 + i} compiled`).join("\n");
    const r = engine.transformToolResult({ sessionId: session, tool: "build", text });
    expect(r.outcome).toBe("rescued");
    out.push({ id: r.blobId!, session, text });
  }
  await engine.idle();
  await engine.close();
  if (!age) return out;
  // an hour passes: files younger than ten minutes may be another process's write in progress
  const hourAgo = (Date.now() - 3_600_000) / 1000;
  for (const f of readdirSync(join(home, "blobs"), { recursive: true, withFileTypes: true }))
    if (f.isFile()) utimesSync(join(f.parentPath, f.name), hourAgo, hourAgo);
  return out;
}

/** Overwrites the given pages of the index with garbage. */
function damagePages(path: string, pages: number[]): void {
  const fd = openSync(path, "r+");
  for (const p of pages) writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (p - 1) * 4096);
  closeSync(fd);
}

const index = (home: string) => join(home, "index.sqlite");

describe("a damaged index", () => {
  it("pages of the call log and search index garbled: doctor says how to repair; the repair keeps every result and every session's handle", async () => {
    const home = tempHome();
    const results = await fill(home.path);
    // The pages of the tables the repair does not carry over (the call log, the search index).
    const db = new Database(index(home.path));
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pages = (
      db
        .prepare("SELECT pageno FROM dbstat WHERE name IN ('calls', 'events', 'search_chunks_data', 'event_texts')")
        .pluck()
        .all() as number[]
    ).slice(0, 8);
    db.close();
    expect(pages.length).toBeGreaterThan(2);
    damagePages(index(home.path), pages);

    const before = await runCli(home.path, "doctor", "--quick");
    expect(before.code).toBe(1);
    expect(before.out).toMatch(/FAIL\s+index\s+.*run spillway doctor --repair/);

    const repaired = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(repaired.out).toMatch(/ok\s+repair\s+new index \(store secret from the copy\): 6 results and 6 session links read back/);
    expect(repaired.out).toMatch(/ok\s+index\s+quick_check ok, 6 live blobs/);
    expect(repaired.code, repaired.out).toBe(0);
    // the damaged file is kept, not deleted
    expect(readdirSync(home.path).some((f) => f.startsWith("index.sqlite.damaged-"))).toBe(true);

    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    for (const r of results) {
      // the agent that received it can still read it by its handle; the other cannot
      expect(engine.fetch({ sessionId: r.session, id: r.id, mode: "range", args: { start: 0, count: 2 } }).text).toContain(
        r.text.split("\n")[1],
      );
      expect(engine.fetch({ sessionId: r.session === "agent-a" ? "agent-b" : "agent-a", id: r.id, mode: "stat" }).isError).toBe(true);
      expect(engine.recall(r.session, r.id).text).toBe(r.text);
    }
    await engine.close();
    home.cleanup();
  }, 120_000);

  it("serve on a damaged index stops with the way out instead of holding the port and the store, so the repair can run", async () => {
    const home = tempHome();
    await fill(home.path, 4);
    const db = new Database(index(home.path));
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pages = (db.prepare("SELECT pageno FROM dbstat WHERE name = 'events'").pluck().all() as number[]).slice(0, 8);
    db.close();
    damagePages(index(home.path), pages);

    // The inspector reads the event log as serve starts: a process left holding the store would
    // answer on the port with every hook failed open, and block doctor --repair.
    const serve = await runCli(home.path, "serve", "--port", "0");
    expect(serve.code).toBe(1);
    expect(serve.err).toMatch(/^spillway serve: the index in .* is damaged \(.*\): run spillway doctor --repair/m);
    const repaired = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(repaired.out).toMatch(/ok\s+repair\s+new index/);
    expect(repaired.code, repaired.out).toBe(0);
    home.cleanup();
  }, 120_000);

  it("its header destroyed: the index cannot be opened, and the repair registers every file again from the secret's copy", async () => {
    const home = tempHome();
    const results = await fill(home.path, 4);
    const db = new Database(index(home.path));
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    damagePages(index(home.path), [1]);

    const before = await runCli(home.path, "doctor", "--quick");
    expect(before.out).toMatch(/FAIL\s+index\s+.*run spillway doctor --repair/);
    // Any other command that cannot open it says the same way out.
    const status = await runCli(home.path, "status");
    expect(status.code).toBe(1);
    expect(status.err).toMatch(/^spillway status: .*\(the index is damaged: run spillway doctor --repair\)$/m);
    const repaired = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(repaired.out).toMatch(/ok\s+repair\s+new index \(store secret from the copy\): 0 results .* 4 more recovered from their files/);
    expect(repaired.code, repaired.out).toBe(0);
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    // no session is known any more: the operator reads them, byte for byte
    for (const r of results) expect(engine.recall(null, r.id).text).toBe(r.text);
    await engine.close();
    home.cleanup();
  }, 120_000);

  it("only its search index damaged: the repair rebuilds that alone, and every call, session and figure stays", async () => {
    const home = tempHome();
    const results = await fill(home.path, 6);
    const before = createEngine({ home: home.path, logger: memoryLogger() });
    const savings = before.savings("total");
    const calls = before.reader.timeline("agent-a", 0, 50).calls.length;
    await before.close();
    const db = new Database(index(home.path));
    // FTS5's own rows lost (its shadow tables are guarded unless unsafe mode lets a test reach them).
    db.unsafeMode(true);
    db.prepare("DELETE FROM search_chunks_data WHERE id > 10").run();
    db.close();
    expect((await runCli(home.path, "doctor", "--quick")).out).toMatch(/FAIL\s+index\s+quick_check found .*fts5/);

    const repaired = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(repaired.out).toMatch(/ok\s+repair\s+only the search index was damaged: rebuilt, 6 live results indexed again/);
    expect(repaired.out).toMatch(/ok\s+index\s+quick_check ok, 6 live blobs/);
    expect(readdirSync(home.path).some((f) => f.startsWith("index.sqlite.damaged-"))).toBe(false);
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    expect(engine.savings("total")).toEqual(savings);
    expect(engine.reader.timeline("agent-a", 0, 50).calls).toHaveLength(calls);
    // Found by search again.
    expect(engine.search("compiled", { blobId: results[0]!.id })[0]).toMatchObject({ blobId: results[0]!.id });
    await engine.close();
    home.cleanup();
  }, 120_000);

  it("repaired right after a crash: the results written moments before are registered too (no other process runs)", async () => {
    const home = tempHome();
    const results = await fill(home.path, 4, false);
    const db = new Database(index(home.path));
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    damagePages(index(home.path), [1]);
    const repaired = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(repaired.out).toMatch(/ok\s+repair\s+new index .* 4 more recovered from their files/);
    expect(repaired.out).not.toMatch(/not looked at yet/);
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    for (const r of results) expect(engine.recall(null, r.id).text).toBe(r.text);
    await engine.close();
    home.cleanup();
  }, 120_000);

  it("is not repaired while spillway serve has the store open: it would go on writing into the index set aside", async () => {
    const home = tempHome();
    await fill(home.path, 2);
    const serve = await startServe(home.path);
    try {
      const db = new Database(index(home.path));
      db.pragma("wal_checkpoint(TRUNCATE)");
      db.close();
      damagePages(index(home.path), [1]);
      const r = await runCli(home.path, "doctor", "--quick", "--repair");
      expect(r.code).toBe(1);
      expect(r.out).toMatch(
        new RegExp(
          `FAIL\\s+repair\\s+not run while other Spillway processes use this store: pid ${serve.pid} \\(spillway\\.js serve\\); stop it first`,
        ),
      );
      expect(readdirSync(home.path).some((f) => f.startsWith("index.sqlite.damaged-"))).toBe(false);
    } finally {
      await serve.stop();
      home.cleanup();
    }
  }, 120_000);

  it("with no copy of the store secret and no readable index, the repair changes nothing and says why", async () => {
    const home = tempHome();
    await fill(home.path, 2);
    const db = new Database(index(home.path));
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    rmSync(join(home.path, "store-secret")); // a store made before the copy was kept
    damagePages(index(home.path), [1]);
    const filesBefore = readdirSync(join(home.path, "blobs"), { recursive: true }).length;
    const r = await runCli(home.path, "doctor", "--quick", "--repair");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL\s+repair\s+cannot rebuild the index .* nothing was changed/);
    expect(existsSync(index(home.path))).toBe(true);
    expect(readdirSync(join(home.path, "blobs"), { recursive: true }).length).toBe(filesBefore);
    home.cleanup();
  }, 120_000);
});
