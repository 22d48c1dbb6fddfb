import { cosine, rerankHits, type EmbeddingProvider } from "./rerank";
import type { SearchHit } from "./searchIndex";

/** A deterministic stand-in for a local model: counts words from small synonym groups. */
class FakeProvider implements EmbeddingProvider {
  calls: string[][] = [];
  private readonly groups = [
    ["car", "automobile", "vehicle"],
    ["cat", "kitten", "feline"],
    ["money", "payment", "invoice"],
  ];
  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    return texts.map((t) => {
      const words = t.toLowerCase().split(/\W+/);
      return this.groups.map((g) => words.filter((w) => g.includes(w)).length);
    });
  }
}

const hit = (chunk: number, score: number, snippet: string): SearchHit => ({
  blobId: "b",
  chunk,
  startLine: chunk * 40,
  endLine: chunk * 40 + 39,
  startChar: chunk * 2000,
  endChar: chunk * 2000 + 1999,
  score,
  snippet,
});

describe("rerankHits", () => {
  it("re-orders BM25 hits by meaning when a provider is configured", async () => {
    const hits = [hit(0, 9, "the invoice for the automobile lease"), hit(1, 8, "my kitten chased a feline friend"), hit(2, 7, "payment terms")];
    const provider = new FakeProvider();
    const out = await rerankHits("cat", hits, provider);
    expect(out.map((h) => h.chunk)).toEqual([1, 0, 2]);
    expect(provider.calls).toEqual([["cat", ...hits.map((h) => h.snippet)]]);
    // Spans are untouched; only the order and the blended score change.
    expect(out[0]).toMatchObject({ startLine: 40, endLine: 79, startChar: 2000 });
  });

  it("keeps BM25 order when the semantic weight is zero, and embeds chunk text if asked", async () => {
    const hits = [hit(0, 9, "invoice"), hit(1, 8, "kitten")];
    const provider = new FakeProvider();
    const out = await rerankHits("cat", hits, provider, { semanticWeight: 0, textOf: (h) => `chunk ${h.chunk}` });
    expect(out.map((h) => h.chunk)).toEqual([0, 1]);
    expect(provider.calls[0]).toEqual(["cat", "chunk 0", "chunk 1"]);
  });

  it("does not call the provider for fewer than two hits", async () => {
    const provider = new FakeProvider();
    expect(await rerankHits("cat", [hit(0, 1, "x")], provider)).toHaveLength(1);
    expect(provider.calls).toHaveLength(0);
  });

  it("computes cosine similarity", () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 1])).toBeCloseTo(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});
