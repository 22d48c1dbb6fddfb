import { readFileSync } from "node:fs";
import fc from "fast-check";
import { renderValue } from "./render";
import { keyText, lastEntries, scanContainer } from "./scan";

const spans = (text: string, es: { keyStart: number; keyEnd: number; valStart: number; valEnd: number }[]): string[] =>
  es.map((e) => (e.keyStart >= 0 ? text.slice(e.keyStart, e.keyEnd) + ":" : "") + text.slice(e.valStart, e.valEnd));

describe("scanContainer", () => {
  it("counts entries and keeps the first and last ones, strings and nesting included", () => {
    const text = '[1, "a,]\\"b", {"k": [1, 2]}, [], null, 3.5e2, "z"]';
    const scan = scanContainer(text, 0, 2, 2);
    expect(scan.count).toBe(7);
    expect(scan.closed).toBe(true);
    expect(spans(text, scan.first)).toEqual(["1", '"a,]\\"b"']);
    expect(spans(text, scan.last)).toEqual(["3.5e2", '"z"']);
  });

  it("counts a child's entries in the same pass", () => {
    const text = '{"a": [1, 2, 3], "b": {}, "c": {"x": 1, "y": [4, 5]}, "d": 7}';
    const scan = scanContainer(text, 0, 10, 0);
    expect(scan.first.map((e) => [keyText(text, e), e.count])).toEqual([
      ["a", 3],
      ["b", 0],
      ["c", 2],
      ["d", -1],
    ]);
  });

  it("reports unterminated and mismatched containers as not closed", () => {
    expect(scanContainer("[1, 2", 0, 5, 0).closed).toBe(false);
    expect(scanContainer("[1, 2}", 0, 5, 0).closed).toBe(false);
    expect(scanContainer('["abc', 0, 5, 0).count).toBe(1);
  });

  it("walks 100,000 levels of nesting without recursion", () => {
    const text = "[".repeat(100_000) + "]".repeat(100_000);
    const scan = scanContainer(text, 0, 1, 0);
    expect(scan).toMatchObject({ count: 1, closed: true, end: text.length });
  });
});

describe("lastEntries", () => {
  it("finds the same last entries backwards as a full forward scan", () => {
    const container = fc.oneof(
      fc.array(fc.jsonValue(), { minLength: 1, maxLength: 30 }),
      fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1, maxKeys: 30 }),
    );
    fc.assert(
      fc.property(container, fc.constantFrom(0, 2, "\t"), fc.integer({ min: 1, max: 5 }), (value, indent, n) => {
        const text = JSON.stringify(value, null, indent);
        const full = scanContainer(text, 0, 0, n);
        const back = lastEntries(text, 0, text.length, n, full.count);
        expect(spans(text, back)).toEqual(spans(text, full.last));
        expect(back.map((e) => e.index)).toEqual(full.last.map((e) => e.index));
      }),
      { numRuns: 400 },
    );
  });
});

describe("renderValue", () => {
  it("renders a huge array from its first entries and its last, read backwards", () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      id: i,
      note: i % 7 === 0 ? 'has "quotes", [brackets] and {braces}' : "plain",
    }));
    const text = JSON.stringify({ items });
    const outer = scanContainer(text, 0, 1, 0);
    const e = outer.first[0]!;
    const fast = renderValue(text, e.valStart, e.valEnd, "", 1, undefined, e.count);
    const slow = renderValue(text, e.valStart, e.valEnd, "", 1);
    expect(fast).toBe(slow);
    expect(fast).toContain("… 19,996 more items (indexes 3–19998) …");
    expect(fast).toContain('{"id": 19999, "note": "has \\"quotes\\", [brackets] and {braces}"}');
  });

  it("clips long strings and says by how much", () => {
    const text = JSON.stringify("é".repeat(500));
    expect(renderValue(text, 0, text.length, "", 0)).toMatch(/^"é+…" \(\+3[89]\d chars\)$/);
  });
});

describe("scanContainer over an ASCII text's bytes", () => {
  // Structural JSON-ish text: valid documents, and the broken ones a tool may print (cut short,
  // mismatched brackets, stray backslashes), so both walks must agree on every shape of input.
  const piece = fc.oneof(
    fc.constantFrom("{", "}", "[", "]", ",", ":", " ", "\n", '"', "\\", '\\"', "1", "null", '"k"', '"a,]}"'),
    fc.json(),
  );
  const doc = fc.tuple(fc.constantFrom("[", "{"), fc.array(piece, { maxLength: 60 })).map(([open, ps]) => open + ps.join(""));

  it("gives the same scan as the text itself, for any input", () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3 }), (text, nFirst, nLast) => {
        const bytes = Buffer.from(text, "utf8");
        fc.pre(bytes.length === text.length);
        expect(scanContainer(text, 0, nFirst, nLast, text.length, -1, bytes)).toEqual(scanContainer(text, 0, nFirst, nLast));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives the same scan on the fixtures", () => {
    for (const rel of ["transactions.json", "minified.json"]) {
      const text = readFileSync(new URL(`../../../tests/fixtures/json/${rel}`, import.meta.url), "utf8");
      const bytes = Buffer.from(text, "utf8");
      expect(bytes.length).toBe(text.length);
      const scan = scanContainer(text, 0, 40, 5, text.length, -1, bytes);
      expect(scan.closed).toBe(true);
      expect(scan).toEqual(scanContainer(text, 0, 40, 5));
    }
  });
});
