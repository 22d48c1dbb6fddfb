import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Kind } from "../types";
import { chunkText } from "./chunker";
import { BlobScan, scanSearch } from "./scanSearch";
import { scratchSearchIndex } from "./searchIndex";

const FIXTURES = join(import.meta.dirname, "..", "..", "tests", "fixtures");

const cases: [string, Kind, string[]][] = [
  ["log/build.log", "log", ["error failed", "test timeout", "warning deprecated"]],
  ["fetch/harbor-sync-README.md", "markdown", ["how do I configure retries", "authentication token", "install"]],
  ["json/transactions.json", "json", ["EUR amount", "2024-01-05"]],
];

describe("scanSearch: BM25 from one pass over the text", () => {
  for (const [file, kind, queries] of cases) {
    it(`ranks the chunks of ${file} as the index does, near enough`, () => {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      const s = scratchSearchIndex();
      try {
        s.index.indexBlob("b", text, kind);
        for (const q of queries) {
          const scanned = scanSearch("b", text, kind, q, 5);
          const indexed = s.index.search(q, { blobId: "b", topK: 5 });
          expect(scanned[0]?.chunk, q).toBe(indexed[0]?.chunk);
          const shared = scanned.filter((h) => indexed.some((i) => i.chunk === h.chunk)).length;
          expect(shared, q).toBeGreaterThanOrEqual(Math.min(2, indexed.length));
          // A chunk both name has the same spans and snippet.
          for (const h of scanned) {
            const same = indexed.find((i) => i.chunk === h.chunk);
            if (same) expect({ ...h, score: 0 }).toEqual({ ...same, score: 0 });
          }
        }
      } finally {
        s.close();
      }
    });
  }

  it("answers each search of a kept scan as a fresh scan would, whatever it counted before", () => {
    const words = ["payment failure", "pay", "payments failed", "testing", "test run", "fail", "Tests passed", "refund", "testingsuite"];
    const text = Array.from({ length: 900 }, (_, i) => `${i} ${words[(i * 7) % words.length]} ${words[(i * 3) % 5]} step ${i % 13}`).join(
      "\n",
    );
    const kept = new BlobScan(text, "log");
    // Nested stems ("testingsui" holds "testi" of testing, which holds "test"; "payme" of payments holds
    // "pay") asked apart and together: the longer counted first, then the shorter in a pass of its own.
    const queries = [
      "testing",
      "test testing",
      "test",
      "test testing testingsuite",
      "payments",
      "pay payments refund",
      "pay",
      "failure",
      "fail failure",
      "zebra",
    ];
    for (const q of [...queries, ...queries.toReversed()]) {
      for (const k of [1, 5, 20]) expect(kept.search("b", q, k), `${q} top ${k}`).toEqual(new BlobScan(text, "log").search("b", q, k));
    }
    for (const q of queries.slice(0, -1)) expect(kept.search("b", q, 5).length, q).toBeGreaterThan(0);
    // What the scores come from, against one pass of the query's own alternation over the text.
    const chunks = [...chunkText(text, "log")];
    for (const q of queries) {
      const { stems, tf } = kept.termFrequencies(q);
      const want = stems.map(() => chunks.map(() => 0));
      for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])(?:${stems.join("|")})`, "giu"))) {
        const c = chunks.findIndex((ch) => ch.startChar <= m.index && m.index < ch.endChar);
        if (c >= 0) want[stems.indexOf(m[0].toLowerCase())]![c]!++;
      }
      expect(
        tf.map((t) => [...t]),
        q,
      ).toEqual(want);
    }
  });

  it("finds nothing when no query word occurs", () => {
    expect(scanSearch("b", "alpha beta\ngamma\n", "text", "zebra quartz")).toEqual([]);
  });
});
