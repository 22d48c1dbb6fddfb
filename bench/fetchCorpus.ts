/**
 * Deterministic text that looks like stored tool results, for the search benchmarks. Words
 * follow a Zipf distribution over a made-up vocabulary, so a few terms are everywhere and
 * most are rare, as in real logs and documents; a uniform vocabulary would make every query
 * term match every chunk and measure a worst case nobody has.
 */

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const SYLLABLES = [
  "ka",
  "to",
  "ri",
  "mel",
  "sun",
  "dra",
  "po",
  "lin",
  "ve",
  "qua",
  "zor",
  "ne",
  "tha",
  "bo",
  "gri",
  "fen",
  "mu",
  "sla",
  "or",
  "pex",
];

/** A vocabulary of `size` pronounceable pseudo-words, the same on every run. */
export function vocabulary(size: number): string[] {
  const r = rng(3);
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(r() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Draws word indexes with P(rank k) ∝ 1/k, by inverting a precomputed cumulative table. */
export function zipf(size: number, r: () => number): () => number {
  const cdf = new Float64Array(size);
  let total = 0;
  for (let k = 0; k < size; k++) cdf[k] = total += 1 / (k + 1);
  return () => {
    const x = r() * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface Corpus {
  words: string[];
  /** A stored-result-like text of about `chars` chars: log, Markdown or JSON, chosen by `seed`. */
  blob(seed: number, chars: number): { text: string; kind: "log" | "markdown" | "json" };
}

type BlobKind = "log" | "markdown" | "json";
const KINDS: readonly BlobKind[] = ["log", "markdown", "json"];
/** Distinct lines generated per kind; blobs are assembled from them, which is much faster than drawing every word. */
const POOL_LINES = 40_000;

export function corpus(vocabSize = 20_000): Corpus {
  const words = vocabulary(vocabSize);
  const r = rng(5);
  const next = zipf(words.length, r);
  const phrase = (n: number) => Array.from({ length: n }, () => words[next()]).join(" ");
  const pools: Record<BlobKind, string[]> = { log: [], markdown: [], json: [] };
  for (let i = 0; i < POOL_LINES; i++) {
    const level = r() < 0.03 ? "ERROR" : r() < 0.1 ? "WARN" : "INFO";
    pools.log.push(`${level} [${words[next() % 50]}] ${phrase(6 + Math.floor(r() * 10))}`);
    pools.markdown.push(i % 25 === 0 ? `\n## ${phrase(3)}\n` : `${phrase(10 + Math.floor(r() * 14))}.`);
    pools.json.push(`"name": "${phrase(2)}", "status": "${words[next() % 8]}", "note": "${phrase(5 + Math.floor(r() * 8))}"`);
  }
  return {
    words,
    blob(seed, chars) {
      const br = rng(seed);
      const kind = KINDS[seed % 3]!;
      const pool = pools[kind];
      const parts: string[] = [];
      let size = 0;
      for (let i = 0; size < chars; i++) {
        const body = pool[Math.floor(br() * pool.length)]!;
        const line =
          kind === "log"
            ? `2026-11-30T10:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}Z ${body} id=${Math.floor(br() * 1e6)}`
            : kind === "json"
              ? `  {"id": ${i}, ${body}, "score": ${Math.round(br() * 1e4) / 100}},`
              : body;
        parts.push(line);
        size += line.length + 1;
      }
      return { text: kind === "json" ? `[\n${parts.join("\n").replace(/,$/, "")}\n]\n` : parts.join("\n") + "\n", kind };
    },
  };
}

/** Plain-language questions mixing common and rare words of the corpus. */
export function questions(c: Corpus, n: number): string[] {
  const r = rng(99);
  const pick = (from: number, to: number) => c.words[from + Math.floor(r() * (to - from))]!;
  const shapes = [
    (a: string, b: string) => `how do I configure the ${a} ${b}`,
    (a: string, b: string) => `why did ${a} fail with ${b}`,
    (a: string, b: string) => `where is ${a} set for ${b}`,
  ];
  return Array.from({ length: n }, (_, i) => shapes[i % shapes.length]!(pick(20, 500), pick(500, 8000)));
}
