import Database from "better-sqlite3";
import { createEngine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { statSync } from "node:fs";
import { indexPath, openIndex, WAL_SIZE_LIMIT } from "./db";
import { BACKSTOP_PAGES, CHECKPOINT_PAGES, WalCheckpoints } from "./walCheckpoint";

/** One transaction that writes about `pages` pages of its own (4 KB rows in a table of their own). */
function write(db: Database.Database, pages: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body BLOB)");
  const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(3_500, i));
  })();
}

describe("WAL checkpoints off the calls' path", () => {
  it("reads the pages waiting in the WAL as SQLite counts them, and checkpoints them from its check, not inside a commit", () => {
    const home = tempHome();
    const db = openIndex(indexPath(home.path));
    const wal = new WalCheckpoints(db, `${indexPath(home.path)}-shm`, memoryLogger());
    try {
      expect(wal.start(60_000)).toBe(true);
      db.pragma("wal_checkpoint(PASSIVE)");
      expect(wal.pendingPages()).toBe(0);
      // Well past the 1,000 pages at which SQLite would have checkpointed inside a commit.
      for (let i = 0; i < 6; i++) write(db, 400);
      const pending = wal.pendingPages()!;
      expect(pending).toBeGreaterThan(2 * CHECKPOINT_PAGES);
      // SQLite's own count: the frames in the WAL, all of them waiting (none copied since the start).
      const [counted] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number; checkpointed: number }[];
      expect(counted!.log).toBe(pending);
      expect(wal.pendingPages()).toBe(0);

      write(db, 300);
      wal.check();
      expect(wal.pendingPages()).toBeGreaterThan(250); // under the threshold: left for later
      write(db, 900);
      wal.check();
      expect(wal.pendingPages()).toBe(0);
    } finally {
      wal.stop();
      db.close();
      home.cleanup();
    }
  });

  it("logs a failing checkpoint once (a full disk fails every check), and says when checkpoints work again", () => {
    const home = tempHome();
    const db = openIndex(indexPath(home.path));
    const logger = memoryLogger();
    let full = true;
    // The real connection; its checkpoints refused as SQLite refuses them on a full disk.
    const refusing = Object.create(db) as typeof db;
    refusing.pragma = ((source: string, options?: { simple?: boolean }) => {
      if (full && source.startsWith("wal_checkpoint")) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      return db.pragma(source, options);
    }) as typeof db.pragma;
    const wal = new WalCheckpoints(refusing, `${indexPath(home.path)}-shm`, logger);
    try {
      expect(wal.start(60_000)).toBe(true);
      write(db, 2 * CHECKPOINT_PAGES);
      for (let i = 0; i < 20; i++) wal.check();
      expect(logger.entries.filter((e) => e.msg.startsWith("a WAL checkpoint failed"))).toHaveLength(1);
      full = false;
      wal.check();
      expect(wal.pendingPages()).toBe(0);
      expect(logger.entries.at(-1)).toMatchObject({ level: "info", msg: "WAL checkpoints work again", data: { failedChecks: 20 } });
    } finally {
      wal.stop();
      db.close();
      home.cleanup();
    }
  });

  it("leaves SQLite's automatic checkpoint on where the header cannot be read", () => {
    const home = tempHome();
    const db = openIndex(indexPath(home.path));
    try {
      const missing = new WalCheckpoints(db, `${home.path}/no-such-shm`, memoryLogger());
      expect(missing.start()).toBe(false);
      expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(CHECKPOINT_PAGES);
      for (let i = 0; i < 4; i++) write(db, 400);
      const [r] = db.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
      expect(r!.log).toBeLessThan(CHECKPOINT_PAGES + 400);
    } finally {
      db.close();
      home.cleanup();
    }
  });

  it("the engine's calls commit without checkpointing, and its timer checkpoints soon after", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    const other = new Database(indexPath(home.path));
    const reader = new WalCheckpoints(other, `${indexPath(home.path)}-shm`, memoryLogger());
    try {
      expect(reader.start(60_000)).toBe(true);
      const log = (i: number) => Array.from({ length: 800 }, (_, k) => `run ${i} step ${k}: compiled module src/m${k}.ts`).join("\n");
      for (let i = 0; i < 60; i++) expect(e.transformToolResult({ sessionId: "s", tool: "build", text: log(i) }).outcome).toBe("rescued");
      // 60 answers' commits, none of which stopped to copy the WAL into the database.
      expect(reader.pendingPages()!).toBeGreaterThan(CHECKPOINT_PAGES);
      await e.idle();
      await vi.waitFor(() => expect(reader.pendingPages()!).toBeLessThan(CHECKPOINT_PAGES), { timeout: 5_000, interval: 50 });
    } finally {
      reader.stop();
      other.close();
      await e.close();
      home.cleanup();
    }
  });

  it("writes made with no turn for the timer: a commit checkpoints past the backstop, and the WAL file is cut back once reused", () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    const other = openIndex(indexPath(home.path));
    const reader = new WalCheckpoints(other, `${indexPath(home.path)}-shm`, memoryLogger());
    const wal = `${indexPath(home.path)}-wal`;
    try {
      expect(reader.start(60_000)).toBe(true);
      // All in one synchronous run, as a script driving the engine would: no timer fires.
      for (let i = 0; i < Math.ceil(BACKSTOP_PAGES / 1_000) + 1; i++) write(other, 1_000);
      expect(reader.pendingPages()!).toBeGreaterThan(BACKSTOP_PAGES);
      expect(statSync(wal).size).toBeGreaterThan(WAL_SIZE_LIMIT);
      expect(e.transformToolResult({ sessionId: "s", tool: "t", text: "a small result" }).outcome).toBe("passthrough");
      // That call's commit checkpointed what the timer could not.
      expect(reader.pendingPages()!).toBeLessThan(CHECKPOINT_PAGES);
      // The next write starts the WAL from the top and cuts its file back to the limit.
      e.transformToolResult({ sessionId: "s", tool: "t", text: "another small result" });
      expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    } finally {
      reader.stop();
      other.close();
      void e.close();
      home.cleanup();
    }
  });
});
