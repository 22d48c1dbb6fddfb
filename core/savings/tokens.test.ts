import { createTokenCounter, slices } from "./tokens";

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
