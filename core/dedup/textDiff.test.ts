import fc from "fast-check";
import { diffLines } from "./lineDiff";
import { diffTrimmed, trimCommonLines } from "./textDiff";

/** The whole texts' lines, as the near-duplicate stub counts them. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** What the trimmed diff must equal: the diff of every line, and every line where it says. */
function expectSameAsWhole(a: string, b: string): void {
  const t = trimCommonLines(a, b);
  const oldLines = linesOf(a);
  const newLines = linesOf(b);
  expect([t.oldCount, t.newCount]).toEqual([oldLines.length, newLines.length]);
  expect(t.oldMiddle).toEqual(oldLines.slice(t.head, t.head + t.oldMiddle.length));
  expect(t.newMiddle).toEqual(newLines.slice(t.head, t.head + t.newMiddle.length));
  expect(oldLines.length - t.head - t.oldMiddle.length).toBe(newLines.length - t.head - t.newMiddle.length);
  expect(diffTrimmed(t)).toEqual(diffLines(oldLines, newLines));
  expect(diffTrimmed(t, 2)).toEqual(diffLines(oldLines, newLines, 2));
}

describe("trimCommonLines + diffTrimmed", () => {
  it("splits only the lines around one changed digit of a large JSON", () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `  { "id": ${10000 + i}, "amount": ${(i * 37) % 1000}.5 },`);
    const a = `[\n${rows.join("\n")}\n]\n`;
    const b = a.replace('"amount": 148.5', '"amount": 149.5');
    const t = trimCommonLines(a, b);
    expect(t.oldMiddle).toEqual(['  { "id": 10004, "amount": 148.5 },']);
    expect(t.newMiddle).toEqual(['  { "id": 10004, "amount": 149.5 },']);
    expect(diffTrimmed(t)!.hunks).toEqual([{ oldStart: 5, oldEnd: 6, newStart: 5, newEnd: 6 }]);
    expectSameAsWhole(a, b);
  });

  it("equals the whole diff at the edges: equal texts, one a prefix of the other, empty lines and final newlines", () => {
    const cases: [string, string][] = [
      ["a\nb", "a\nb"],
      ["a\nb", "a\nb\nc"],
      ["a\nb\n", "a\nb\nc"],
      ["a\nb\n", "a\nb\n\n"],
      ["\n\n", "\n\n\n"],
      ["", "a\nb"],
      ["x\na\nb", "a\nb"],
      ["a\nb\na\nb", "a\nb\nc\na\nb"],
      ["a\n", "b\n"],
      ["\na", "a"],
      ["ab\ncd", "abX\ncd"],
    ];
    for (const [a, b] of cases) {
      expectSameAsWhole(a, b);
      expectSameAsWhole(b, a);
    }
  });

  it("equals the whole diff on random edits of texts with repeated and volatile lines", () => {
    const line = fc.constantFrom("a", "b", "", "✓ ok (12 ms)", "✓ ok (40 ms)", "x = 1", "}", "FAIL y");
    const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.boolean()).map(([ls, nl]) => ls.join("\n") + (nl ? "\n" : ""));
    const edit = fc.tuple(fc.nat(), fc.nat(3), fc.array(line, { maxLength: 3 }));
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 4 }), (a, edits) => {
        const lines = a.split("\n");
        for (const [at, del, ins] of edits) lines.splice(at % (lines.length + 1), del, ...ins);
        expectSameAsWhole(a, lines.join("\n"));
      }),
      { numRuns: 500 },
    );
  });
});
