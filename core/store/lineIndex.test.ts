import { stringDoc } from "../text/textDoc";
import { blobTextDoc } from "./blobText";
import { buildLineIndex, parseLineIndex, STEP_CHARS } from "./lineIndex";

const texts: Record<string, string> = {
  log: Array.from({ length: 5000 }, (_, i) => `2026-11-30 INFO worker-${i % 8} step ${i} done in ${i % 97} ms`).join("\n") + "\n",
  minified: JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"] }))),
  unicode: "héllo wörld 😀 ".repeat(2000) + "\n" + "x\n".repeat(3000) + "日本語テキスト\r\n".repeat(2000) + "no newline at the end 😀",
  blankLines: "\n\n\na\n\n" + "b".repeat(10_000) + "\n\n",
};

/** Reads of a text's UTF-8 bytes, recording what was asked for. */
function bytesOf(text: string) {
  const buf = Buffer.from(text, "utf8");
  const reads: number[] = [];
  return { reads, read: (start: number, length: number) => (reads.push(length), buf.subarray(start, start + length)) };
}

describe("line index", () => {
  for (const [name, text] of Object.entries(texts)) {
    it(`answers every lookup of the ${name} text as the text itself does`, () => {
      const { index, data } = buildLineIndex(text);
      const parsed = parseLineIndex(data, text.length, Buffer.byteLength(text, "utf8"))!;
      expect(parsed).not.toBeNull();
      const { read } = bytesOf(text);
      const doc = blobTextDoc(parsed, read);
      const want = stringDoc(text);
      expect([doc.length, doc.lines]).toEqual([want.length, want.lines]);
      expect(index.lines).toBe(want.lines);
      const lines = [0, 1, 2, 3, 63, 64, 65, want.lines >> 1, want.lines - 2, want.lines - 1].filter((l) => l >= 0 && l < want.lines);
      for (const l of lines) {
        expect(doc.lineOffset(l), `line ${l}`).toBe(want.lineOffset(l));
        expect(doc.lineEnd(l), `end of line ${l}`).toBe(want.lineEnd(l));
      }
      const offsets = [0, 1, STEP_CHARS - 1, STEP_CHARS, STEP_CHARS + 1, text.length >> 1, text.length - 2, text.length - 1];
      for (const o of offsets) {
        expect(doc.lineAt(o), `line at ${o}`).toBe(want.lineAt(o));
        expect(doc.slice(o, o + 5000)).toBe(text.slice(o, o + 5000));
      }
    });
  }

  it("reads a few KB of a large text for a slice, not the text", () => {
    const text = texts.log!.repeat(20); // about 1.2 MB
    const { index } = buildLineIndex(text);
    const { read, reads } = bytesOf(text);
    const doc = blobTextDoc(index, read);
    const from = doc.lineOffset(60_000);
    expect(doc.slice(from, from + 4000)).toBe(text.slice(from, from + 4000));
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThan(4000 + 3 * STEP_CHARS);
  });

  it("refuses a damaged index file, or one built for another text, so it is rebuilt", () => {
    const text = texts.log!;
    const { data } = buildLineIndex(text);
    const bytes = Buffer.byteLength(text, "utf8");
    expect(parseLineIndex(data, text.length, bytes)).not.toBeNull();
    const flipped = Buffer.from(data);
    flipped[100] = flipped[100]! ^ 1;
    expect(parseLineIndex(flipped, text.length, bytes)).toBeNull();
    expect(parseLineIndex(data.subarray(0, data.length - 8), text.length, bytes)).toBeNull();
    expect(parseLineIndex(data, text.length + 1, bytes)).toBeNull();
  });
});
