import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { MIGRATIONS, migrate } from "./migrations";
import { openIndex } from "./db";

describe("migrations", () => {
  it("bring a new index to the latest version once, and a reopen applies nothing", () => {
    const home = tempHome();
    const path = join(home.path, "index.sqlite");
    const db = openIndex(path);
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    db.close();
    const again = openIndex(path);
    expect(again.pragma("journal_mode", { simple: true })).toBe("wal");
    again.close();
    home.cleanup();
  });

  it("upgrade an index left at an older version without losing its rows", () => {
    const home = tempHome();
    const path = join(home.path, "index.sqlite");
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma("user_version = 1");
    old.prepare("INSERT INTO meta (key, value) VALUES ('id_secret', 'ab')").run();
    old.close();
    const db = openIndex(path);
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'id_secret'").get()).toEqual({ value: "ab" });
    db.close();
    home.cleanup();
  });

  it("start the size cap's running total from the blobs an older index already holds", () => {
    const home = tempHome();
    const path = join(home.path, "index.sqlite");
    const old = new Database(path);
    const before = MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE store_usage"));
    for (const m of MIGRATIONS.slice(0, before)) old.exec(m);
    old.pragma(`user_version = ${before}`);
    const row = old.prepare(
      `INSERT INTO blobs (id, chars, bytes, lines, encoding, kind, shape, tool, session_id, label, encrypted, pinned,
         created_at, last_access_at, expires_at, fetch_count, sidecar_bytes, aux_bytes, tombstoned_at)
       VALUES (?, 10, ?, 1, 'utf8', 'text', 'text', 't', 's', 'public', 0, 0, 0, 0, 0, 0, ?, ?, ?)`,
    );
    row.run("aaaaaaaaaaaa", 1_000, 200, 30, null);
    row.run("bbbbbbbbbbbb", 5_000, 0, 0, null);
    row.run("cccccccccccc", 7_000, 0, 0, 123); // a tombstone counts nothing
    old.close();
    const db = openIndex(path);
    expect(db.prepare("SELECT bytes FROM store_usage").get()).toEqual({ bytes: 6_230 });
    db.close();
    home.cleanup();
  });

  it("names the failing step when the index cannot be opened", () => {
    const home = tempHome();
    const path = join(home.path, "index.sqlite");
    writeFileSync(path, "this is not a database".repeat(100));
    expect(() => openIndex(path)).toThrow(/cannot open the index .*index\.sqlite/);
    home.cleanup();
  });
});
