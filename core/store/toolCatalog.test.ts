import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { openStartupIndex } from "./startupIndex";

const entry = { command: "node", args: ["server.js"], env: { API_KEY: "sk-live-0123456789abcdef0123456789" } };
const tools = [{ name: "search", description: "Searches.", inputSchema: { type: "object" } }];

describe("the tool catalog", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("gives back what a server listed, under the same config entry however its keys are ordered, across processes' opens", () => {
    const a = openStartupIndex(home.path);
    expect(a.catalog.load("fs", entry)).toBeNull();
    a.catalog.save("fs", entry, tools);
    a.close();
    const b = openStartupIndex(home.path);
    expect(b.catalog.load("fs", { env: { API_KEY: entry.env.API_KEY }, args: ["server.js"], command: "node" })).toEqual(tools);
    b.close();
  });

  it("keeps the instructions a server gave with its list, and forgets them when it gives none", () => {
    const a = openStartupIndex(home.path);
    expect(a.catalog.instructions("fs", entry)).toBeNull();
    a.catalog.save("fs", entry, tools, "Read before you write.");
    a.close();
    const b = openStartupIndex(home.path);
    expect(b.catalog.instructions("fs", entry)).toBe("Read before you write.");
    expect(b.catalog.instructions("fs", { ...entry, args: ["other.js"] })).toBeNull();
    b.catalog.save("fs", entry, tools, null);
    expect(b.catalog.instructions("fs", entry)).toBeNull();
    expect(b.catalog.load("fs", entry)).toEqual(tools);
    b.close();
  });

  it("has nothing for an edited entry or another server's name", () => {
    const i = openStartupIndex(home.path);
    i.catalog.save("fs", entry, tools);
    expect(i.catalog.load("fs", { ...entry, args: ["server.js", "--root", "/tmp"] })).toBeNull();
    expect(i.catalog.load("fs", { ...entry, env: { API_KEY: "sk-live-rotated" } })).toBeNull();
    expect(i.catalog.load("other", entry)).toBeNull();
    i.close();
  });

  it("keys entries by a hash that depends on the store, and never stores the entry itself", () => {
    const i = openStartupIndex(home.path);
    i.catalog.save("fs", entry, tools);
    const other = tempHome();
    const j = openStartupIndex(other.path);
    expect(j.catalog.configHash(entry)).not.toBe(i.catalog.configHash(entry));
    j.close();
    other.cleanup();
    i.close();
    const raw = ["index.sqlite", "index.sqlite-wal"]
      .map((f) => (existsSync(join(home.path, f)) ? readFileSync(join(home.path, f)).toString("latin1") : ""))
      .join("");
    expect(raw).toContain("Searches.");
    expect(raw).not.toContain(entry.env.API_KEY);
    expect(raw).not.toContain("server.js");
  });
});
