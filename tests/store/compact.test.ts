// `spillway sweep --compact`, the real CLI on a real store: after a month of results expired and
// their detail removed, the index file keeps its size (free pages, FTS5 postings of deleted
// chunks); compacting shrinks it to what it holds, and what it holds is all still there.
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import { join } from "node:path";
import { createEngine } from "../../core/engine/engine";
import { FakeClock, memoryLogger } from "../../core/runtime";
import { compactRoom, sqliteTempDir } from "../../core/store/compact";
import { indexPath } from "../../core/store/db";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

const DAY = 86_400_000;
const fileSize = (home: string) =>
  statSync(indexPath(home)).size + (statSync(indexPath(home) + "-wal", { throwIfNoEntry: false })?.size ?? 0);

describe("compacting the index", () => {
  it("shrinks the file to what it holds, and keeps every kept result findable and every figure", async () => {
    const home = tempHome();
    const clock = new FakeClock(Date.now() - 40 * DAY);
    const engine = createEngine({ home: home.path, clock, logger: memoryLogger() });
    // 120 results of ~30 KB, 40 days ago: rescued, indexed for search, then expired.
    for (let i = 0; i < 120; i++) {
      const text = Array.from({ length: 600 }, (_, n) => `run ${i} step ${n}: module_${(n * 7 + i) % 97} compiled in ${n % 13} ms`).join(
        "\n",
      );
      engine.transformToolResult({ sessionId: "old", tool: "build", server: "ci", args: { run: i }, text });
    }
    await engine.idle();
    await engine.close();
    // One result of today, pinned by nothing but its age: it must survive and stay searchable.
    const today = createEngine({ home: home.path, logger: memoryLogger() });
    const kept = today.transformToolResult({
      sessionId: "new",
      tool: "build",
      server: "ci",
      args: { run: "today" },
      text: Array.from({ length: 600 }, (_, n) => `today step ${n}: zanzibar_${n} linked`).join("\n"),
    });
    await today.idle();
    const savings = today.savings("total");
    await today.close();

    expect((await runCli(home.path, "sweep")).code).toBe(0);
    const swept = fileSize(home.path);
    const r = await runCli(home.path, "sweep", "--compact");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^compacted: index file [\d.]+ (KB|MB) → [\d.]+ (KB|MB) \(search index merged, free pages returned to the disk\) in [\d.]+ s$/m,
    );
    const compacted = fileSize(home.path);
    // The expired results' pages and postings are gone from the file.
    expect(compacted).toBeLessThan(swept / 2);

    const after = createEngine({ home: home.path, logger: memoryLogger() });
    try {
      expect(after.reader.checkIndex().problems).toEqual([]);
      expect(after.savings("total")).toEqual(savings);
      const hits = after.search("zanzibar_42", { blobId: kept.blobId! });
      expect(hits[0]).toMatchObject({ blobId: kept.blobId, startLine: expect.any(Number) });
      // No posting of an expired result is left to find.
      expect(after.search("compiled", {})).toEqual([]);
    } finally {
      await after.close();
      home.cleanup();
    }
  });

  it("says the file has not shrunk yet while another process reads the store, and names it", async () => {
    const home = tempHome();
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    for (let i = 0; i < 40; i++)
      engine.transformToolResult({
        sessionId: "s",
        tool: "build",
        args: { run: i },
        text: Array.from({ length: 600 }, (_, n) => `run ${i} step ${n}: module_${n % 97} compiled`).join("\n"),
      });
    await engine.idle();
    // The engine stays open (as serve would), and a read is under way on its store.
    const reader = new Database(indexPath(home.path), { readonly: true });
    reader.prepare("BEGIN").run();
    reader.prepare("SELECT count(*) FROM calls").get();
    try {
      const r = await runCli(home.path, "sweep", "--compact");
      expect(r.code).toBe(0);
      expect(r.out).toMatch(
        new RegExp(
          `^compacted, not yet on disk: .* but pid ${process.pid} \\([^)]*\\)(, pid \\d+ \\([^)]*\\))* is reading the store, .*when that process checkpoints or stops`,
          "m",
        ),
      );
      expect(r.out).not.toMatch(/^compacted: /m);
    } finally {
      reader.prepare("COMMIT").run();
      reader.close();
      await engine.close();
    }
    const again = await runCli(home.path, "sweep", "--compact");
    expect(again.out).toMatch(/^compacted: index file /m);
    home.cleanup();
  });

  it("refuses, changing nothing, where the disk has not the room for a copy", () => {
    const same = { dev: 1, free: 150e6 };
    expect(compactRoom(100e6, same, same)).toMatch(/^about 220\.0 MB free beside the index \(a copy, then its WAL\); 150\.0 MB is free$/);
    expect(compactRoom(100e6, { dev: 1, free: 500e6 }, { dev: 2, free: 50e6 })).toMatch(/in the temp folder/);
    expect(compactRoom(100e6, { dev: 1, free: 500e6 }, { dev: 2, free: 500e6 })).toBeNull();
  });

  it("looks for room where SQLite writes its copy: SQLITE_TMPDIR first, then TMPDIR", () => {
    const a = tempHome();
    const b = tempHome();
    try {
      expect(sqliteTempDir({ SQLITE_TMPDIR: a.path, TMPDIR: b.path })).toBe(a.path);
      expect(sqliteTempDir({ SQLITE_TMPDIR: join(a.path, "missing"), TMPDIR: b.path })).toBe(b.path);
      expect(sqliteTempDir({})).toBe("/var/tmp");
    } finally {
      a.cleanup();
      b.cleanup();
    }
  });
});
