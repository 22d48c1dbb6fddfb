import { EXACT_TOKEN_MAX_CHARS, createTokenCounter, sample, slices } from "./tokens";

describe("token counting", () => {
  it("uses a real BPE tokenizer, not chars/4, and treats special-token text as plain text", () => {
    const t = createTokenCounter("o200k_base");
    expect(t.count("hello world")).toBe(2);
    expect(t.count("<|endoftext|> is just text here")).toBeGreaterThan(3);
    expect(createTokenCounter("cl100k_base").count("hello world")).toBe(2);
  });

  it("counts large texts in slices with the same result as the one-shot count (newline cuts)", async () => {
    const t = createTokenCounter();
    const lines = Array.from({ length: 8000 }, (_, i) => `2026-11-30 INFO request ${i} served in ${i % 300} ms from cache node-${i % 7}`);
    const text = lines.join("\n") + "\n";
    expect(await t.countAsync(text)).toBe(t.count(text));
  });

  it("slices cover the text exactly and never split a surrogate pair", () => {
    const text = ("😀".repeat(1000) + " word ").repeat(50);
    const parts = [...slices(text, 1000)];
    expect(parts.join("")).toBe(text);
    for (const p of parts) expect(p.isWellFormed()).toBe(true);
  });
});

describe("token measure", () => {
  const log = (n: number) =>
    Array.from({ length: n }, (_, i) => `2026-11-30 INFO request ${i} served in ${i % 300} ms from cache node-${i % 7}`).join("\n") + "\n";

  it("counts exactly up to the limit, and says so", async () => {
    const t = createTokenCounter();
    const text = log(3000);
    expect(text.length).toBeLessThanOrEqual(EXACT_TOKEN_MAX_CHARS);
    expect(await t.measure(text)).toEqual({ tokens: t.count(text), estimated: false });
  });

  it("estimates a larger text from a sample, close to the exact count, and marks it", async () => {
    const t = createTokenCounter();
    const text = log(40_000);
    expect(text.length).toBeGreaterThan(EXACT_TOKEN_MAX_CHARS * 8);
    const m = await t.measure(text);
    const exact = t.count(text);
    expect(m.estimated).toBe(true);
    expect(Math.abs(m.tokens - exact) / exact).toBeLessThan(0.03);
  });

  it("samples evenly from the start to the end, in order, without overlap", () => {
    const text = log(40_000);
    const pieces = [...sample(text, 8, 4096)];
    expect(pieces).toHaveLength(8);
    expect(text.startsWith(pieces[0]!)).toBe(true);
    expect(text.endsWith(pieces[7]!)).toBe(true);
    let at = 0;
    for (const p of pieces) {
      const found = text.indexOf(p, at);
      expect(found).toBeGreaterThanOrEqual(at);
      at = found + p.length;
      // each piece starts at a line start and ends after a newline (cut points the tokenizer never merges across)
      if (found > 0) expect(text[found - 1]).toBe("\n");
    }
  });
});
