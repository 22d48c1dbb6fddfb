import fc from "fast-check";
import RE2 from "re2";
import { runFetch } from "./fetchModes";
import { expectSentence, fixture, inputFor } from "./fetchTestUtil";
import { compilePattern } from "./grepPattern";
import { scanLines } from "./grepScan";

const grep = (content: string, args: Record<string, unknown>, kind: "log" | "json" | "text" = "log", maxChars = 4000) =>
  runFetch("grep", { ...inputFor(content, kind, args), limits: { maxChars, fullMaxChars: 50_000 } });

describe("grep", () => {
  const log = fixture("nightly-batch.log");
  const lines = log.split("\n");

  it("lists matching lines with 0-based numbers, ignoring case by default", () => {
    const a = grep(log, { pattern: "econnrefused" });
    expect(a.isError).toBe(false);
    const expected = lines.map((l, i) => [l, i] as const).filter(([l]) => /econnrefused/i.test(l));
    expect(expected.length).toBe(2);
    expect(a.text.split("\n")[0]).toBe(`grep /econnrefused/i in blob-test: 2 matching lines of ${lines.length - 1}`);
    for (const [l, i] of expected) expect(a.text).toContain(`L${i}: ${l}`);
    expect(a.truncated).toBe(false);
    expect(grep(log, { pattern: "econnrefused", ignore_case: false }).text).toMatch(/^No line matches \/econnrefused\//);
  });

  it("finds a marker deep inside a 250k-char single-line JSON and shows it centred with its char offset", () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `row-${i}`, tags: ["a", "b"], score: i * 1.5 }));
    rows[2400] = { ...rows[2400]!, name: "MARKER-7f3a" };
    const json = JSON.stringify(rows);
    expect(json.length).toBeGreaterThan(150_000);
    const big = json + " ".repeat(Math.max(0, 250_000 - json.length));
    const at = big.indexOf("MARKER-7f3a");
    const a = grep(big, { pattern: "marker-[0-9a-f]+" }, "json");
    expect(a.isError).toBe(false);
    expect(a.text).toContain(`L0 (${big.length.toLocaleString("en-US")}-char line, match at char ${at}): …`);
    const snippet = a.text.split("\n")[1]!.split(`match at char ${at}): `)[1]!;
    expect(snippet.length).toBeLessThan(300);
    const m = snippet.indexOf("MARKER-7f3a");
    expect(Math.abs(m - (snippet.length - m - 11))).toBeLessThan(10); // centred
  });

  it("stays linear on a catastrophic-backtracking pattern", () => {
    const a = grep("a".repeat(100_000) + "!", { pattern: "(a+)+$" });
    expect(a.isError).toBe(false);
    expect(a.text).toMatch(/^No line matches/);
    const b = grep("a".repeat(100_000), { pattern: "(a+)+$" });
    expect(b.text).toMatch(/1 matching line of 1/);
  });

  it("allows TAB in a pattern and refuses control characters, long and bad patterns with one sentence", () => {
    expect(grep("key\tvalue\nother", { pattern: "key\tval" }).text).toContain("L0: key\tvalue");
    expectSentence(grep(log, { pattern: "a\u0007" }), /control character/);
    expectSentence(grep(log, { pattern: "x".repeat(1001) }), /1,000-char limit/);
    expectSentence(grep(log, { pattern: "([a-z]" }), /bad pattern/);
    expectSentence(grep(log, {}), /needs the argument pattern/);
    expectSentence(grep(log, { pattern: "x", from_line: 10_000 }), /from_line/);
  });

  it("caps the answer at maxChars and says how to continue", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `line ${i} status=500 handler failed`).join("\n");
    const a = grep(many, { pattern: "status=500" }, "log", 1000);
    expect(a.text.length).toBeLessThanOrEqual(1000);
    expect(a.truncated).toBe(true);
    const next = Number(/from_line=(\d+)/.exec(a.text)![1]);
    const shownLast = Number([...a.text.matchAll(/^L(\d+):/gm)].at(-1)![1]);
    expect(next).toBe(shownLast + 1);
    expect(a.text).toMatch(/5,000 matching lines/);
    const b = grep(many, { pattern: "status=500", from_line: next }, "log", 1000);
    expect(b.text.split("\n")[1]).toBe(`L${next}: line ${next} status=500 handler failed`);
  });

  it("counts at most 10,000 matching lines and says there may be more", () => {
    const many = "hit\n".repeat(12_000);
    expect(grep(many, { pattern: "hit" }).text).toMatch(/10,000\+ matching lines of 12,000/);
  });

  it("reports serving only what it showed", () => {
    const a = grep(log, { pattern: "OOMKilled" });
    const line = lines.find((l) => l.includes("OOMKilled"))!;
    expect(a.servedChars).toBeGreaterThanOrEqual(line.length);
    expect(a.servedChars).toBeLessThan(line.length + 20);
  });
});

describe("chain", () => {
  const text = Array.from({ length: 40 }, (_, i) => (i === 10 || i === 12 || i === 30 ? `E${i} failure here` : `ok ${i}`)).join("\n");

  it("adds context lines, merges overlapping windows and separates blocks with --", () => {
    const a = runFetch("chain", inputFor(text, "log", { pattern: "failure", context: 2 }));
    const body = a.text.split("\n").slice(1);
    expect(body).toEqual([
      "L8- ok 8",
      "L9- ok 9",
      "L10: E10 failure here",
      "L11- ok 11",
      "L12: E12 failure here",
      "L13- ok 13",
      "L14- ok 14",
      "--",
      "L28- ok 28",
      "L29- ok 29",
      "L30: E30 failure here",
      "L31- ok 31",
      "L32- ok 32",
    ]);
  });

  it("says how to read a block too big for the answer", () => {
    const wide = Array.from({ length: 60 }, (_, i) => (i === 30 ? "HIT" : "w".repeat(250))).join("\n");
    const a = runFetch("chain", {
      ...inputFor(wide, "log", { pattern: "HIT", context: 20 }),
      limits: { maxChars: 1000, fullMaxChars: 50_000 },
    });
    expect(a.truncated).toBe(true);
    expect(a.text.length).toBeLessThanOrEqual(1000);
    expect(a.text).toMatch(
      /\[the first block was cut \(answer cap 1,000 chars\); read lines 10–50 with range start=10 count=41, or use a smaller context\]$/,
    );
  });

  it("clamps windows at the start and end of the blob", () => {
    const a = runFetch("chain", inputFor("x1\nok\nx2", "text", { pattern: "x", context: 5 }));
    expect(a.text.split("\n").slice(1)).toEqual(["L0: x1", "L1- ok", "L2: x2"]);
  });
});

function naive(text: string, pattern: string): number[] {
  const re = new RE2(pattern, "mui");
  return text.split("\n").flatMap((l, i) => (re.test(l) ? [i] : []));
}

describe("grep scanning strategies agree", () => {
  // The literal prefilter, the whole-text RE2 scan and a plain per-line check must find the same lines.
  const alphabet = fc.constantFrom("a", "b", "c", "A", "\n", " ", "é", "x");
  const patterns = fc.constantFrom(
    "ab",
    "a+b",
    "ab|ca",
    "(ab)+c",
    "^ab",
    "b$",
    "a.b",
    "AB",
    "x\\s?a",
    "ca?b",
    "é a",
    "[ab]c",
    "c|^",
    "a\\sb",
  );
  it("on random texts", () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 300 }), patterns, fc.boolean(), (chars, pattern, ic) => {
        const text = chars.join("");
        const pat = compilePattern(pattern, ic);
        if (!pat.ok) throw new Error(pat.message);
        const expected: number[] = [];
        const line = new RE2(pattern, "mu" + (ic ? "i" : ""));
        // The shared line convention: empty text has no line; a trailing newline adds none.
        const split = text === "" ? [] : text.split("\n");
        if (text.endsWith("\n")) split.pop();
        split.forEach((l, i) => line.test(l) && expected.push(i));
        const viaPrefilter = scanLines(text, pat, { fromLine: 0, maxHits: 1000, countCap: 1000 }).hits;
        const viaRegex = scanLines(text, { ...pat, prefilter: null }, { fromLine: 0, maxHits: 1000, countCap: 1000 }).hits;
        expect(viaPrefilter.map((h) => h.line)).toEqual(expected);
        // The Buffer scan maps byte offsets back to the same char offsets as the string scan.
        expect(viaRegex).toEqual(viaPrefilter);
        for (const h of viaRegex) {
          expect(text.slice(h.lineStart, h.lineEnd)).toBe(split[h.line]);
          expect(line.test(text.slice(h.matchStart, h.matchEnd)) || h.matchStart === h.matchEnd || /[$^]/.test(pattern)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("when dense literal candidates or cross-line matches force a fallback", () => {
    const dense = Array.from({ length: 9000 }, (_, i) => (i % 3 === 0 ? `ab ${i}` : `a b ${i}`)).join("\n");
    const crossing = Array.from({ length: 3000 }, (_, i) => (i % 2 ? "b tail" : i % 10 === 0 ? "a b" : "head a")).join("\n");
    for (const [text, pattern] of [
      [dense, "ab \\d"],
      [crossing, "a\\sb"],
      [crossing, "a[\\s\\S]*b"],
    ] as const) {
      const pat = compilePattern(pattern, true);
      if (!pat.ok) throw new Error(pat.message);
      const got = scanLines(text, pat, { fromLine: 0, maxHits: 100_000, countCap: 100_000 }).hits.map((h) => h.line);
      expect(got).toEqual(naive(text, pattern));
    }
  });

  it("across 4 MB conversion blocks, with non-ASCII text and a line longer than a block", () => {
    const lines = Array.from({ length: 120_000 }, (_, i) =>
      i % 997 === 0 ? `∆ ${i} naïve ERROR code=${i % 7}` : `ok ${i} ${"é".repeat(i % 40)}`,
    );
    lines[60_000] = "x".repeat(5_000_000) + " ERROR code=3 tail";
    const text = lines.join("\n");
    const pat = compilePattern("error code=[36]", true);
    if (!pat.ok) throw new Error(pat.message);
    const hits = scanLines(text, { ...pat, prefilter: null }, { fromLine: 0, maxHits: 100_000, countCap: 100_000 }).hits;
    const expected = lines.flatMap((l, i) => (/error code=[36]/i.test(l) ? [i] : []));
    expect(hits.map((h) => h.line)).toEqual(expected);
    for (const h of hits) {
      expect(text.slice(h.lineStart, h.lineEnd)).toBe(lines[h.line]);
      expect(text.slice(h.matchStart, h.matchEnd).toLowerCase()).toMatch(/^error code=[36]$/);
    }
  });
});
