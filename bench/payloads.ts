/** Deterministic benchmark payloads: realistic shapes at the sizes the issues name. */

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** A build/test log of about `bytes` chars with a few errors buried in the middle. */
export function buildLog(bytes: number): string {
  const r = rng(7);
  const parts: string[] = [];
  let n = 0;
  let i = 0;
  const levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN"];
  while (n < bytes) {
    let line: string;
    if (i % 50_000 === 25_000)
      line = `2026-11-30T10:${String(i % 60).padStart(2, "0")}:00Z ERROR worker-3 failed to compile src/pkg${i}/index.ts: TS2345 Argument of type 'string' is not assignable`;
    else
      line = `2026-11-30T10:${String(i % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z ${levels[Math.floor(r() * 5)]} worker-${i % 8} compiled module src/pkg${Math.floor(r() * 900)}/file${i}.ts in ${Math.floor(r() * 900)} ms`;
    parts.push(line);
    n += line.length + 1;
    i++;
  }
  return parts.join("\n") + "\n";
}

/** A single-line (minified) JSON array of records, about `bytes` chars. */
export function minifiedJson(bytes: number): string {
  const r = rng(11);
  const items: string[] = [];
  let n = 2;
  let i = 0;
  while (n < bytes) {
    const item = JSON.stringify({
      id: i,
      sku: `SKU-${Math.floor(r() * 1e6)}`,
      price: Math.round(r() * 10000) / 100,
      qty: Math.floor(r() * 50),
      tags: ["a", "b", "c"].slice(0, 1 + (i % 3)),
      vendor: { name: `Vendor ${i % 97}`, country: ["DE", "US", "FR", "JP"][i % 4] },
    });
    items.push(item);
    n += item.length + 1;
    i++;
  }
  return `[${items.join(",")}]`;
}
