import { lineStarts } from "../../text/lines";
import { contentPage, lineAt } from "./contentPage";

const view = (text: string) => ({ text, starts: lineStarts(text) });
const req = { id: "0123456789ab", by: "lines" as const, start: 0, count: 10, maxLineChars: 20_000 };

describe("content pages", () => {
  it("returns a window of lines with the blob's own 0-based numbering", () => {
    const v = view(Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n") + "\n");
    const p = contentPage(v, { ...req, start: 45, count: 10 }, false);
    expect(p).toMatchObject({ start: 45, end: 50, firstLine: 45, totalLines: 50, text: "line 45\nline 46\nline 47\nline 48\nline 49" });
    expect(p.startChar).toBe(v.text.indexOf("line 45"));
    expect(contentPage(v, { ...req, start: 99 }, false)).toMatchObject({ start: 50, end: 50, text: "" });
  });

  it("cuts very long lines and says which", () => {
    const v = view("short\n" + "y".repeat(500) + "\nlast");
    const p = contentPage(v, { ...req, maxLineChars: 100 }, false);
    expect(p.text.split("\n").map((l) => l.length)).toEqual([5, 100, 4]);
    expect(p.cutLines).toEqual([{ line: 1, chars: 500 }]);
  });

  it("serves char spans, anchored to a line for jumps into long lines", () => {
    const v = view("head\n" + "z".repeat(1_000) + "MATCH" + "z".repeat(100));
    const p = contentPage(v, { ...req, by: "chars", anchorLine: 1, start: 990, count: 20 }, false);
    expect(p).toMatchObject({ by: "chars", start: 995, end: 1015, firstLine: 1 });
    expect(p.text).toBe("zzzzzzzzzzMATCHzzzzz");
    expect(lineAt(v, 0)).toBe(0);
    expect(lineAt(v, 5)).toBe(1);
  });
});
