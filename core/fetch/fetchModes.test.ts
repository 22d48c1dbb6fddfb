import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SearchIndex, searchMigrationSql } from "../search/searchIndex";
import { FETCH_MODES, runFetch } from "./fetchModes";
import { expectSentence, fixture, inputFor, metaFor } from "./fetchTestUtil";

describe("runFetch", () => {
  const readme = fixture("harbor-sync-README.md");

  it("stat names size, lines, kind, tool, source, times, label and fetch count", () => {
    const a = runFetch("stat", {
      ...inputFor(readme, "markdown"),
      meta: metaFor(readme, "markdown", { fetchCount: 3, label: "internal" }),
    });
    expect(a.text.split("\n")).toEqual([
      "Blob blob-test",
      `size: ${readme.length.toLocaleString("en-US")} chars, ${Buffer.byteLength(readme).toLocaleString("en-US")} bytes`,
      "lines: 274 (numbered 0–273)",
      "kind: markdown",
      "tool: fs__read_text_file; source: filesystem",
      "stored: 2024-05-14T02:00:00.000Z; expires: 2024-05-17T02:00:00.000Z",
      "label: internal; state: live; fetched 3 times",
    ]);
    expect(a.servedChars).toBe(0);
  });

  it("full serves content under the cap, refuses over it and withholds credential blobs", () => {
    const small = runFetch("full", inputFor(readme, "markdown"));
    expect(small).toEqual({ text: readme, truncated: false, isError: false, servedChars: readme.length });
    const big = "z".repeat(50_001);
    const refused = runFetch("full", inputFor(big, "text"));
    expectSentence(refused, /^Blob blob-test is 50,001 chars, over the 50,000-char limit for full, so use outline .* range .* query/);
    const withheld = runFetch("full", inputFor(readme, "markdown", {}, { withholdFull: true }));
    expectSentence(withheld, /withheld because it holds credentials/);
  });

  it("outline is capped at maxChars with a note on how to go further", () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field_${i}`, i])));
    const a = runFetch("outline", { ...inputFor(wide, "json"), limits: { maxChars: 1500, fullMaxChars: 50_000 } });
    expect(a.text.length).toBeLessThanOrEqual(1500);
    expect(a.truncated).toBe(true);
    expect(a.text).toMatch(/\[outline cut at 1,500 chars, .* use query, grep or range for the rest\]$/);
  });

  describe("search", () => {
    let dir: string;
    let db: Database.Database;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "spillway-fetch-"));
      db = new Database(join(dir, "index.db"));
      db.exec(searchMigrationSql);
    });
    afterEach(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("indexes on first use and answers with spans and centred snippets", () => {
      const index = new SearchIndex(db);
      const a = runFetch(
        "search",
        inputFor(readme, "markdown", { query: "how do I configure the retry timeout", top_k: 3 }, { search: index }),
      );
      expect(index.isIndexed("blob-test")).toBe(true);
      const lines = a.text.split("\n");
      expect(lines[0]).toBe(
        'search "how do I configure the retry timeout" in blob-test: 3 best chunks by BM25 (terms: configure, retry, timeout); lines are 0-based',
      );
      expect(lines[1]).toMatch(/^1\. lines 103–\d+ \(chars \d+–\d+\), score [\d.]+: .*configure the retry timeout/);
      expect(lines.at(-1)).toMatch(/^Read a whole chunk with range start=103 count=\d+\.$/);
    });

    it("works without the store's index, and says when nothing matches", () => {
      const a = runFetch("search", inputFor(readme, "markdown", { query: "proxy firewall" }));
      expect(a.text).toMatch(/^1\. lines 213–/m);
      const none = runFetch("search", inputFor(readme, "markdown", { query: "kubernetes helm chart" }));
      expect(none.isError).toBe(false);
      expect(none.text).toMatch(/^No part of blob-test matches any of: kubernetes, helm, chart/);
      expectSentence(runFetch("search", inputFor(readme, "markdown", { query: "?!" })), /no words to search for/);
    });

    it("turns an internal failure into a sentence, not a stack trace", () => {
      const index = new SearchIndex(db);
      db.close();
      const a = runFetch("search", inputFor(readme, "markdown", { query: "retry" }, { search: index }));
      expectSentence(a, /^Mode search failed on blob blob-test: /);
      db = new Database(join(dir, "index.db"));
    });

    it("cuts an internal failure that quotes a huge input, in the answer and in what is logged", () => {
      // What V8 said of the scan's regex built from a 1 MB query: the whole pattern, in the message.
      const huge = `Invalid regular expression: /(?:${"x".repeat(1_000_000)})/giu: Stack overflow`;
      const logged: unknown[] = [];
      const input = inputFor(readme, "markdown", { query: "retry" });
      const a = runFetch(
        "search",
        Object.defineProperty(input, "content", {
          get: () => {
            throw new SyntaxError(huge);
          },
        }),
        (err) => logged.push(err),
      );
      expectSentence(a, /^Mode search failed on blob blob-test: Invalid regular expression: \/\(\?:x+…\.$/);
      expect((logged[0] as Error).message.length).toBeLessThanOrEqual(200);
      expect(((logged[0] as Error).cause as Error).message).toBe(huge);
    });
  });

  it("answers every kind of bad input with one sentence naming the subject", () => {
    const log = fixture("nightly-batch.log");
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["nope", {}, /^Unknown mode "nope": the valid modes are stat, outline, search, grep, chain, range, query, full\.$/],
      ["grep", {}, /argument pattern/],
      ["grep", { pattern: "(" }, /bad pattern/],
      ["grep", { pattern: "x\u0000" }, /control character/],
      ["grep", { pattern: "y".repeat(2000) }, /1,000-char limit/],
      ["grep", { pattern: "x", ignore_case: "sometimes" }, /argument ignore_case of mode grep must be true or false/],
      ["chain", { pattern: "x", context: 99 }, /argument context of mode chain/],
      ["search", {}, /argument query/],
      ["search", { query: "x", top_k: 0 }, /argument top_k/],
      ["range", {}, /argument start/],
      ["range", { start: 99_999 }, /past the last line/],
      ["range", { start_char: 10_000_000 }, /past the end/],
      ["query", {}, /argument expression/],
      ["query", { expression: "a.b" }, /works on json and ndjson/],
    ];
    for (const [mode, args, re] of cases) expectSentence(runFetch(mode, inputFor(log, "log", args)), re);
  });

  it("keeps every slice within maxChars, down to the smallest allowed cap", () => {
    const log = Array.from({ length: 50 }, (_, i) => `line ${i} ${"x".repeat(300)} ERROR`).join("\n");
    const json = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i, s: "y".repeat(i % 30) })));
    const args = { pattern: "ERROR", query: "error line", start: 0, expression: "[*].s" };
    for (const maxChars of [200, 250, 400, 4000]) {
      for (const mode of ["outline", "search", "grep", "chain", "range"]) {
        const a = runFetch(mode, { ...inputFor(log, "log", args), limits: { maxChars, fullMaxChars: 50_000 } });
        expect({ mode, maxChars, isError: a.isError, over: a.text.length > maxChars }).toEqual({
          mode,
          maxChars,
          isError: false,
          over: false,
        });
      }
      const q = runFetch("query", { ...inputFor(json, "json", args), limits: { maxChars, fullMaxChars: 50_000 } });
      expect(q.text.length).toBeLessThanOrEqual(maxChars);
    }
  });

  it("exports the modes in the documented order", () => {
    expect(FETCH_MODES).toEqual(["stat", "outline", "search", "grep", "chain", "range", "query", "full"]);
  });
});
