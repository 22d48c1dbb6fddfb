import { describe, expect, it } from "vitest";
import type { GlobalHit } from "../../../../core/inspector/api/contract";
import { groupHits, markPieces, queryWords } from "./searchGroups";

const hit = (blobId: string, sessionId: string, score: number, startLine = 0): GlobalHit => ({
  blobId,
  sessionId,
  score,
  startLine,
  endLine: startLine + 10,
  snippet: "",
  tool: "t",
  kind: "log",
  label: "public",
  state: "live",
  chars: 1,
  createdAt: 0,
});

describe("global search results", () => {
  it("group hits by blob or session, best group first", () => {
    const hits = [hit("b1", "s1", 1), hit("b2", "s2", 5), hit("b1", "s1", 3, 40), hit("b3", "s1", 2)];
    expect(groupHits(hits, "blob").map((g) => [g.key, g.hits.length])).toEqual([
      ["b2", 1],
      ["b1", 2],
      ["b3", 1],
    ]);
    expect(groupHits(hits, "session").map((g) => [g.key, g.hits.length])).toEqual([
      ["s2", 1],
      ["s1", 3],
    ]);
    expect(groupHits(hits, "none")).toHaveLength(4);
  });

  it("mark each query word where it occurs, whole words and their endings", () => {
    const words = queryWords("password failures AKIA");
    expect(words).toEqual(["password", "failure", "akia"]);
    const pieces = markPieces("DB_PASSWORD=x; 2 failures; key AKIAIOSFODNN7", words);
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(["PASSWORD", "failures", "AKIAIOSFODNN7"]);
    expect(pieces.map((p) => p.text).join("")).toBe("DB_PASSWORD=x; 2 failures; key AKIAIOSFODNN7");
  });
});
