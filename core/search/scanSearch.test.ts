import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Kind } from "../types";
import { scanSearch } from "./scanSearch";
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

  it("finds nothing when no query word occurs", () => {
    expect(scanSearch("b", "alpha beta\ngamma\n", "text", "zebra quartz")).toEqual([]);
  });
});
