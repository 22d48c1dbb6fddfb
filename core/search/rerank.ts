/**
 * Optional semantic re-ranking. BM25 finds candidates; when a local embedding model is
 * configured, the engine re-orders them by meaning. Spillway ships no model and downloads
 * nothing: this is the seam a provider plugs into.
 */
import type { SearchHit } from "./searchIndex";

/** A local embedding model: one vector per text, all of the same length. */
export interface EmbeddingProvider {
  embed(texts: string[]): Promise<number[][]>;
}

export interface RerankOptions {
  /** Text embedded for a hit; defaults to its snippet (the engine may pass the whole chunk). */
  textOf?: (hit: SearchHit) => string;
  /** Share of the cosine similarity in the blended score, 0..1 (the rest is normalised BM25). */
  semanticWeight?: number;
}

/** Hits re-ordered by a blend of cosine similarity to the query and normalised BM25. */
export async function rerankHits(
  query: string,
  hits: readonly SearchHit[],
  provider: EmbeddingProvider,
  opts: RerankOptions = {},
): Promise<SearchHit[]> {
  if (hits.length < 2) return [...hits];
  const textOf = opts.textOf ?? ((h: SearchHit) => h.snippet);
  const w = Math.min(1, Math.max(0, opts.semanticWeight ?? 0.7));
  const vectors = await provider.embed([query, ...hits.map(textOf)]);
  if (vectors.length !== hits.length + 1) throw new Error("embedding provider returned the wrong number of vectors");
  const q = vectors[0]!;
  const maxBm25 = Math.max(...hits.map((h) => h.score), Number.MIN_VALUE);
  const blended = hits.map((h, i) => ({ hit: h, score: w * cosine(q, vectors[i + 1]!) + (1 - w) * (h.score / maxBm25) }));
  blended.sort((a, b) => b.score - a.score);
  return blended.map(({ hit, score }) => ({ ...hit, score }));
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
