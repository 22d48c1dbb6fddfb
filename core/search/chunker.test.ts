import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countLines, lineStarts } from "../text/lines";
import { CHUNK_MAX_CHARS, CHUNK_MAX_LINES, chunkText } from "./chunker";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "../../tests/fixtures/fetch", name), "utf8");

describe("chunkText", () => {
  it("covers a text with line-aligned chunks whose spans match the content", () => {
    const text = fixture("nightly-batch.log");
    const chunks = [...chunkText(text, "log")];
    const starts = lineStarts(text);
    let expectLine = 0;
    for (const c of chunks) {
      expect(c.startLine).toBe(expectLine);
      expect(c.startChar).toBe(starts[c.startLine]);
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(CHUNK_MAX_LINES);
      expect(c.endChar - c.startChar).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      const end = c.endLine + 1 < starts.length ? starts[c.endLine + 1] : text.length;
      expect(c.endChar).toBe(end);
      expectLine = c.endLine + 1;
    }
    expect(expectLine).toBe(countLines(text));
  });

  it("windows a very long single line by characters and reports char offsets", () => {
    const line = JSON.stringify(Array.from({ length: 8000 }, (_, i) => ({ id: i, name: `item-${i}` })));
    const chunks = [...chunkText(line, "json")];
    expect(chunks.length).toBeGreaterThan(line.length / CHUNK_MAX_CHARS - 1);
    expect(chunks[0]!.startChar).toBe(0);
    expect(chunks.at(-1)!.endChar).toBe(line.length);
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i]!;
      expect(c.startLine).toBe(0);
      expect(c.endLine).toBe(0);
      expect(c.endChar - c.startChar).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      if (i > 0) expect(c.startChar).toBe(chunks[i - 1]!.endChar);
    }
    // Windows end on a separator, so no word is split between two chunks.
    expect(line.slice(chunks[0]!.endChar - 1, chunks[0]!.endChar)).toMatch(/\W/);
  });

  it("starts a new chunk at a Markdown heading and remembers the section", () => {
    const md = fixture("harbor-sync-README.md");
    const chunks = [...chunkText(md, "markdown")];
    const retry = chunks.find((c) => md.slice(c.startChar, c.endChar).startsWith("## Retries and timeouts"));
    expect(retry).toBeDefined();
    const next = chunks[chunks.indexOf(retry!) + 1]!;
    expect(next.heading === "Retries and timeouts" || md.slice(next.startChar).startsWith("## ")).toBe(true);
  });

  it("yields nothing for empty or word-less text", () => {
    expect([...chunkText("", "text")]).toEqual([]);
    expect([...chunkText("\n\n---\n", "text")]).toEqual([]);
  });
});
