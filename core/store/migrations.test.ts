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

  it("names the failing step when the index cannot be opened", () => {
    const home = tempHome();
    const path = join(home.path, "index.sqlite");
    writeFileSync(path, "this is not a database".repeat(100));
    expect(() => openIndex(path)).toThrow(/cannot open the index .*index\.sqlite/);
    home.cleanup();
  });
});
