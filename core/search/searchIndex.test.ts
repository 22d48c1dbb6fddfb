import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SearchIndex, searchMigrationSql } from "./searchIndex";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../../tests/fixtures/fetch", name), "utf8");

let dir: string;
let db: Database.Database;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "spillway-search-"));
  db = new Database(join(dir, "index.db"));
  db.pragma("journal_mode = WAL");
  db.exec(searchMigrationSql);
  index = new SearchIndex(db);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const docs = {
  readme: { text: fixture("harbor-sync-README.md"), kind: "markdown" as const },
  log: { text: fixture("nightly-batch.log"), kind: "log" as const },
  orders: { text: fixture("orders-page.json"), kind: "json" as const },
};

function indexAll(): void {
  for (const [id, d] of Object.entries(docs)) index.indexBlob(id, d.text, d.kind);
}

describe("SearchIndex", () => {
  it("ranks the right chunk first for plain-language questions", () => {
    indexAll();
    // [question, blob, text the top chunk must contain]
    const cases: [string, keyof typeof docs, string][] = [
      ["how do I configure the retry timeout", "readme", "Raise the retry timeout when layers are large"],
      ["where are the logs written on macOS?", "readme", "~/Library/Logs/harbor-sync/harbor-sync.log"],
      ["how can I rotate the encryption key", "readme", "harbor-sync key rotate"],
      ["what port does the server listen on by default", "readme", "listens on port 9417 by default"],
      ["proxy settings behind a corporate firewall", "readme", "network:\n  proxy: http://proxy.corp.example:3128"],
      ["uninstall and remove all stored data", "readme", "rm -rf ~/.harbor-sync"],
      ["which tags are excluded by the filters", "readme", 'exclude:\n    - tags: ["*-rc*", "*-snapshot"]'],
      ["why did the database connection fail", "log", "database connection failed: connect ECONNREFUSED"],
      ["which job ran out of memory", "log", "the job ran out of memory"],
      ["what is the shipping address with instructions for the harbour master", "orders", "leave the parcel with the harbour master"],
    ];
    for (const [question, blob, marker] of cases) {
      const text = docs[blob].text;
      const at = text.indexOf(marker);
      expect(at, marker).toBeGreaterThanOrEqual(0);
      const [top] = index.search(question, { blobId: blob, topK: 5 });
      expect(top, question).toBeDefined();
      expect({ question, span: [top!.startChar, top!.endChar] }).toEqual({ question, span: [expect.any(Number), expect.any(Number)] });
      expect(at >= top!.startChar && at < top!.endChar, `${question} → chunk ${top!.startLine}–${top!.endLine}`).toBe(true);
    }
  });

  it("returns line spans that match the content and a snippet centred on a query term", () => {
    indexAll();
    const text = docs.readme.text;
    const [hit] = index.search("retry timeout", { blobId: "readme" });
    const lines = text.split("\n");
    expect(text.slice(hit!.startChar, hit!.endChar).split("\n")[0]).toBe(lines[hit!.startLine]);
    expect(hit!.snippet.toLowerCase()).toMatch(/retry|timeout/);
    expect(hit!.score).toBeGreaterThan(0);
  });

  it("searches across all blobs when no blob is named, and within a set of blobs", () => {
    indexAll();
    const global = index.search("database connection failed ECONNREFUSED", { topK: 3 });
    expect(global[0]!.blobId).toBe("log");
    expect(index.search("ECONNREFUSED", { blobIds: ["readme", "orders"] })).toEqual([]);
    const some = index.search("harbour master parcel", { blobIds: ["readme", "orders"], topK: 2 });
    expect(some[0]!.blobId).toBe("orders");
  });

  it("tracks indexed blobs and removes them", () => {
    expect(index.isIndexed("readme")).toBe(false);
    index.indexBlob("readme", docs.readme.text, "markdown");
    expect(index.isIndexed("readme")).toBe(true);
    index.indexBlob("readme", docs.readme.text, "markdown"); // re-index replaces, no duplicates
    expect(index.search("proxy", { blobId: "readme", topK: 50 }).map((h) => h.chunk)).toEqual([
      ...new Set(index.search("proxy", { blobId: "readme", topK: 50 }).map((h) => h.chunk)),
    ]);
    index.removeBlob("readme");
    expect(index.isIndexed("readme")).toBe(false);
    expect(index.search("proxy", {})).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM search_chunks").get()).toEqual({ n: 0 });
  });

  it("replaces an index a crash left part-way, and removes one blob's chunks only", () => {
    const chunks = () => db.prepare("SELECT count(*) AS n FROM search_chunks").get() as { n: number };
    index.indexBlob("readme", docs.readme.text, "markdown");
    index.indexBlob("orders", docs.orders.text, "json");
    const before = chunks().n;
    // What a process killed mid-index leaves: the blob's row, incomplete, and its first chunks.
    index.indexBlob("log", docs.log.text, "log");
    const logChunks = chunks().n - before;
    expect(logChunks).toBeGreaterThan(5);
    db.prepare("UPDATE search_blobs SET complete = 0, chunks = 0 WHERE blob_id = 'log'").run();
    const { seq } = db.prepare("SELECT seq FROM search_blobs WHERE blob_id = 'log'").get() as { seq: number };
    db.prepare("DELETE FROM search_chunks WHERE rowid >= ?").run(seq * 2 ** 21 + 3);
    expect(chunks().n).toBe(before + 3);

    index.indexBlob("log", docs.log.text, "log");
    expect(chunks().n).toBe(before + logChunks);
    index.removeBlob("log");
    expect(chunks().n).toBe(before);
    expect(index.search("proxy", { blobId: "readme" }).length).toBeGreaterThan(0);
    expect(index.isIndexed("orders")).toBe(true);
    index.removeBlob("readme");
    index.removeBlob("orders");
    expect(chunks().n).toBe(0);
  });

  it("indexes asynchronously in batches and only then serves the blob", async () => {
    const done = index.indexBlobAsync("log", docs.log.text, "log", 1);
    expect(index.isIndexed("log")).toBe(false);
    expect(index.search("memory", { blobId: "log" })).toEqual([]);
    await done;
    expect(index.isIndexed("log")).toBe(true);
    expect(index.search("memory", { blobId: "log" }).length).toBeGreaterThan(0);
  });

  it("stops an asynchronous index when the blob is removed meanwhile", async () => {
    const done = index.indexBlobAsync("log", docs.log.text, "log", 1);
    index.removeBlob("log");
    await done;
    expect(index.isIndexed("log")).toBe(false);
    expect(db.prepare("SELECT count(*) AS n FROM search_chunks").get()).toEqual({ n: 0 });
  });

  it("never lets query syntax through to FTS5", () => {
    indexAll();
    for (const q of ['"unbalanced', "NEAR(", "a AND OR NOT", "col:val*", "-x +y ^z", "'; DROP TABLE search_chunks; --", ""]) {
      expect(() => index.search(q, {})).not.toThrow();
    }
    expect(index.search("retry", { blobId: "readme" }).length).toBeGreaterThan(0);
  });

  it("survives a second migration run and reopening the file", () => {
    index.indexBlob("readme", docs.readme.text, "markdown");
    db.exec(searchMigrationSql);
    db.close();
    db = new Database(join(dir, "index.db"));
    index = new SearchIndex(db);
    expect(index.isIndexed("readme")).toBe(true);
    expect(index.search("key rotation", { blobId: "readme" }).length).toBeGreaterThan(0);
  });
});

describe("a word in more passages than can be ranked at once", () => {
  it("is ranked among the newest passages holding it (and the caller is told); a rarer word still searches every blob", () => {
    // 26 blobs of 520 passages (40 lines each): 13,520 passages hold "request", one blob "ancient".
    const lines = (b: number) => Array.from({ length: 520 * 40 }, (_, i) => `request ${b}-${i} served`).join("\n");
    index.indexBlob("b00", lines(0) + "\nancient relic", "log");
    for (let b = 1; b < 26; b++) index.indexBlob(`b${String(b).padStart(2, "0")}`, lines(b), "log");

    const told: number[] = [];
    const hits = index.search("request", { topK: 10, onNarrowed: (rows) => told.push(rows) });
    expect(told).toEqual([12_000]);
    expect(hits).toHaveLength(10);
    // The newest 12,000 passages are those of the last 24 blobs (and 80 of b01's): never b00's.
    expect(hits.some((h) => h.blobId === "b00")).toBe(false);

    const rare: number[] = [];
    const found = index.search("ancient request", { topK: 3, onNarrowed: (rows) => rare.push(rows) });
    expect(rare).toEqual([]);
    expect(found[0]).toMatchObject({ blobId: "b00" });
  });
});
