import { readFileSync } from "node:fs";
import type { Kind } from "../types";
import { countLines } from "../text/lines";
import { buildExcerpt, excerptBudget } from "./excerpt";
import { defaultConfig } from "../config/config";
import { renderHandle } from "./handle";
import { detectKind } from "./kind";

const fixture = (rel: string): string => readFileSync(new URL(`../../tests/fixtures/${rel}`, import.meta.url), "utf8");

/** The handle the model would see for a fixture, rescued with the default excerpt cap. */
function rescue(rel: string, cap = 8000): { text: string; handle: string; excerpt: string } {
  const text = fixture(rel);
  const { kind, shape } = detectKind(text);
  const excerpt = buildExcerpt(text, kind, cap);
  const handle = renderHandle({ id: "0123456789ab", tool: "demo", chars: text.length, lines: countLines(text), kind, shape, excerpt });
  return { text, handle, excerpt: excerpt.text };
}

/** 0-based number of the first line containing `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((l) => l.includes(needle));
}

describe("JSON excerpts", () => {
  it("keeps the 2,000-record handle under 2 % of the result and says it is a preview", () => {
    const { text, handle } = rescue("json/transactions.json");
    expect(handle.length).toBeLessThan(text.length * 0.02);
    expect(handle).toMatch(/preview/i);
    expect(handle).toContain("NOT the full output");
    expect(handle).toContain("array[2000] of object{id,date,amount,currency}");
  });

  it("shows the first and last records and how many lie between", () => {
    const { excerpt } = rescue("json/transactions.json");
    const records = JSON.parse(fixture("json/transactions.json")) as { id: number }[];
    expect(excerpt).toContain(`"id": ${records[0]!.id}`);
    expect(excerpt).toContain(`"id": ${records[1999]!.id}`);
    expect(excerpt).toContain("… 1,995 more items (indexes 3–1997) …");
    expect(excerpt).not.toContain(`"id": ${records[1000]!.id},`);
  });

  it("gives minified one-line JSON a multi-line structural excerpt, not a character slice", () => {
    const { text, excerpt } = rescue("json/minified.json");
    expect(countLines(text)).toBe(1);
    expect(countLines(excerpt)).toBeGreaterThan(20);
    expect(excerpt).toContain('"results": [');
    expect(excerpt).toMatch(/… 1,54\d more items/);
    expect(excerpt).toContain('"next": null');
    // The marker deep inside is not in the preview: finding it takes a fetch.
    expect(excerpt).not.toContain("needle-7f3a9c");
  });

  it("describes an envelope by its payload array in the shape", () => {
    expect(detectKind(fixture("json/minified.json")).shape).toBe(
      "object{meta,results,next}, .results: array[1550] of object{7 keys: id,sku,title,price,…}",
    );
  });

  it("shows every key of an object with a preview of its value", () => {
    const doc = JSON.stringify({ name: "x".repeat(5000), tags: Array.from({ length: 500 }, (_, i) => `t${i}`), n: 1 });
    const ex = buildExcerpt(doc, "json", 2000).text;
    expect(ex).toContain('"name": "xxxx');
    expect(ex).toContain("(+4,8");
    expect(ex).toContain('"tags": [');
    expect(ex).toContain("… 496 more items (indexes 3–498) …");
    expect(ex).toContain('"n": 1');
  });
});

describe("log excerpts", () => {
  const log = fixture("log/build.log");
  const { handle, excerpt } = rescue("log/build.log");

  it.each([["error TS2345: Argument of type 'string'"], ["FAILED tests/payments/refund.test.ts"], ["Process exited with exit code 2"]])(
    "promotes the buried line %s with its 0-based line number",
    (needle) => {
      const n = lineOf(log, needle);
      expect(n).toBeGreaterThan(1000);
      const shown = handle.split("\n").find((l) => l.includes(needle));
      expect(shown).toBeDefined();
      expect(shown).toMatch(new RegExp(`^line ${n}[ :]`));
    },
  );

  it("keeps the head and tail of the log around the promoted lines", () => {
    const lines = log.trimEnd().split("\n");
    expect(excerpt.startsWith(lines[0]!)).toBe(true);
    expect(excerpt).toContain(lines[lines.length - 1]!);
    expect(excerpt).toMatch(/… [\d,]+ lines omitted \(lines \d+–\d+\); error\/failure lines among them/);
  });

  it("folds near-identical repeated errors into one line with a count, and shows where they stop", () => {
    const shown = excerpt.split("\n").filter((l) => l.includes("ECONNRESET"));
    const first = lineOf(log, "ECONNRESET");
    const last = log.split("\n").findLastIndex((l) => l.includes("ECONNRESET"));
    expect(last).toBeGreaterThan(first);
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(new RegExp(`^line ${first} \\(×5 similar\\):`));
    expect(shown[1]).toMatch(new RegExp(`^line ${last} \\(the last of the ×5 at line ${first}\\):`));
  });

  it("gives the last repeats only the room the first lines leave", () => {
    // 40 distinct failures, each repeated: at a small cap every first line comes before any last one.
    const name = (k: number) => String.fromCharCode(97 + (k % 26), 97 + Math.floor(k / 26));
    const lines = Array.from(
      { length: 400 },
      (_, i) => `step ${i}: ${i % 10 === 3 ? `ERROR in module ${name(Math.floor(i / 10))} failed` : "ok"}`,
    );
    const noisy = [...lines, ...lines].join("\n");
    const small = buildExcerpt(noisy, "log", 1_500).text;
    const firsts = small.split("\n").filter((l) => /^line \d+ \(×2 similar\)/.test(l)).length;
    const lasts = small.split("\n").filter((l) => /the last of the/.test(l)).length;
    expect(firsts).toBeGreaterThan(5);
    expect(lasts).toBe(0);
    expect(buildExcerpt(noisy, "log", 8_000).text).toMatch(
      /^line \d+ \(the last of the ×2 at line \d+\): step \d+: ERROR in module \w+ failed$/m,
    );
  });

  it("does not promote lines where the signal words are only parts of other words or zero counts", () => {
    const promoted = excerpt.slice(excerpt.indexOf("among them"), excerpt.lastIndexOf("\n…"));
    expect(promoted).not.toContain("mirror");
    expect(promoted).not.toContain("terrorist");
    expect(promoted).not.toContain("stderr_handler");
    expect(promoted).not.toContain("0 errors");
  });

  it("fits a 200-char cap and still says it was cut", () => {
    const small = buildExcerpt(log, "log", 200).text;
    expect(small.length).toBeLessThanOrEqual(200);
    expect(small).toContain("… [excerpt truncated: showing");
  });
});

describe("HTML excerpts", () => {
  const html = fixture("html/page.html");

  it.each([200, 500, 1000, 8000, 100_000])("never shows script, style or comment content (cap %i)", (cap) => {
    const ex = buildExcerpt(html, "html", cap).text;
    expect(ex).not.toContain("SECRET_SCRIPT_MARKER");
    expect(ex).not.toContain("STYLE_MARKER_9");
    expect(ex).not.toContain("COMMENT_MARKER");
    expect(ex).not.toContain("font-family");
  });

  it("shows the title, the heading outline and readable text", () => {
    const ex = buildExcerpt(html, "html", 8000).text;
    expect(ex).toContain("title: Quarterly Report Q3 2024");
    expect(ex).toContain(`line ${lineOf(html, "<h2>Revenue</h2>")}: ## Revenue`);
    expect(ex).toContain("Costs stayed flat & predictable.");
    expect(ex).toContain("© 2024 Example Corp.");
    expect(ex).not.toContain("<p>");
  });

  it("strips scripts even when the page is smaller than the cap", () => {
    const page = "<html><body><p>Hello</p><script>var SECRET_SCRIPT_MARKER=1</script></body></html>";
    expect(buildExcerpt(page, "html", 8000).text).not.toContain("SECRET_SCRIPT_MARKER");
  });

  it("swallows the rest of the page after an unclosed script", () => {
    const page = "<p>before</p><script>SECRET_SCRIPT_MARKER; </scrip> <p>after</p>";
    const ex = buildExcerpt(page, "html", 500).text;
    expect(ex).toContain("before");
    expect(ex).not.toContain("SECRET_SCRIPT_MARKER");
  });
});

describe("CSV, NDJSON, Markdown and XML excerpts", () => {
  it("shows the CSV header, the first rows and the last rows", () => {
    const csv = fixture("csv/transactions.csv");
    const lines = csv.trimEnd().split("\n");
    const ex = buildExcerpt(csv, "csv", 8000).text;
    const shown = ex.split("\n");
    expect(shown[0]).toBe(lines[0]);
    expect(shown.slice(1, 4)).toEqual(lines.slice(1, 4));
    expect(ex).toContain(lines[lines.length - 1]!);
    expect(ex).toContain(lines[lines.length - 2]!);
    expect(ex).toMatch(/… 1,99\d rows omitted/);
    expect(detectKind(csv)).toEqual({ kind: "csv", shape: "8 columns × 2,000 rows" });
  });

  it("shows the first and last NDJSON records and promotes error records", () => {
    const nd = fixture("ndjson/events.ndjson");
    const lines = nd.trimEnd().split("\n");
    const ex = buildExcerpt(nd, "ndjson", 8000).text;
    expect(ex.startsWith(lines[0]!)).toBe(true);
    expect(ex).toContain(lines[lines.length - 1]!);
    expect(ex).toContain(`line 901: ${lines[901]}`);
    expect(ex).toContain(`line 1207: ${lines[1207]}`);
  });

  it("lists Markdown headings with line numbers but not shell comments in fences", () => {
    const md = fixture("markdown/guide.md");
    const ex = buildExcerpt(md, "markdown", 8000).text;
    expect(ex).toContain("line 0: # Spillway operator guide");
    expect(ex).toContain(`line ${lineOf(md, "### 2.1 Details")}: ### 2.1 Details`);
    expect(ex).not.toMatch(/line \d+: # not a heading/);
  });

  it("collapses repeated XML elements into a skeleton with counts", () => {
    const ex = buildExcerpt(fixture("xml/feed.xml"), "xml", 8000).text;
    expect(ex).toContain("<item id lang> ×600");
    expect(ex).toContain('<pubDate> ×600 "2024-01-01"');
  });
});

const filler = (tag: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${tag} line ${i} ${"x".repeat(60)}`);
/** Two-letter words, so generated lines differ by more than digits. */
const word = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));

describe("the cap", () => {
  const files = [
    "json/transactions.json",
    "json/minified.json",
    "log/build.log",
    "html/page.html",
    "csv/transactions.csv",
    "ndjson/events.ndjson",
    "markdown/guide.md",
    "xml/feed.xml",
  ];
  const kinds: Kind[] = ["json", "ndjson", "csv", "tsv", "html", "xml", "markdown", "code", "log", "text"];

  it.each(files)("holds for %s at 200, 500 and 8000 chars, under every kind", (rel) => {
    const text = fixture(rel);
    for (const cap of [200, 500, 8000]) {
      for (const kind of kinds) {
        const ex = buildExcerpt(text, kind, cap);
        expect(ex.text.length).toBeLessThanOrEqual(cap);
        expect(ex.truncated).toBe(true);
        expect(ex.text).toMatch(/… \[excerpt truncated: showing [\d,]+ of [\d,]+ chars\]$/);
      }
    }
  });

  it("raises caps below 200 to 200", () => {
    const log = fixture("log/build.log");
    for (const cap of [-5, 0, 10, 199]) {
      const ex = buildExcerpt(log, "log", cap).text;
      expect(ex.length).toBeLessThanOrEqual(200);
      expect(ex.length).toBeGreaterThan(150);
    }
  });

  it("returns a result that fits verbatim and untruncated", () => {
    expect(buildExcerpt("short\nresult", "text", 500)).toEqual({ text: "short\nresult", truncated: false });
  });

  it("gives anchors 40 %, head 40 % and tail 20 % when all three are long", () => {
    // Distinct words per error line, so none fold together as near-identical repeats.
    const errors = Array.from({ length: 200 }, (_, i) => `error: module ${word(i)} failed ${"y".repeat(60)}`);
    const lines = [...filler("head", 200), ...errors, ...filler("tail", 200)];
    const ex = buildExcerpt(lines.join("\n"), "log", 8000).text;
    const chars = (re: RegExp): number =>
      ex
        .split("\n")
        .filter((l) => re.test(l))
        .join("\n").length;
    expect(chars(/^head line/) / 8000).toBeCloseTo(0.4, 1);
    expect(chars(/^line \d+: error/) / 8000).toBeCloseTo(0.4, 1);
    expect(chars(/^tail line/) / 8000).toBeCloseTo(0.2, 1);
  });

  it("gives head 2/3 and tail 1/3 when there are no anchors", () => {
    const text = Array.from({ length: 3000 }, (_, i) => `row ${i} ${"z".repeat(50)}`).join("\n");
    const ex = buildExcerpt(text, "text", 6000).text;
    const [head, tail] = ex.split(/\n… [\d,]+ lines omitted[^\n]*\n/);
    expect(head!.length / 6000).toBeCloseTo(2 / 3, 1);
    expect(tail!.length / 6000).toBeCloseTo(1 / 3, 1);
  });
});

describe("the budget follows the result's size", () => {
  const sizing = defaultConfig().excerpt;

  it("is a share of the result with a floor, and never above the cap", () => {
    expect(excerptBudget(12_001, sizing)).toBe(2_000);
    expect(excerptBudget(40_000, sizing)).toBe(4_000);
    expect(excerptBudget(80_000, sizing)).toBe(8_000);
    expect(excerptBudget(5_000_000, sizing)).toBe(8_000);
    expect(excerptBudget(50_000, { maxChars: 1_000, minChars: 1_500, share: 0.1 })).toBe(1_000);
  });

  it("keeps the excerpt of a large result within the exact cap and uses it", () => {
    const log = fixture("log/build.log");
    const ex = buildExcerpt(log, "log", excerptBudget(log.length, sizing)).text;
    expect(ex.length).toBeLessThanOrEqual(8_000);
    expect(ex.length).toBeGreaterThan(7_500);
  });

  it("still shows the promoted failure lines of a log just over the threshold", () => {
    const lines = [
      ...filler("head", 70),
      "ERROR step 71: test suite payments failed with exit code 2",
      ...filler("mid", 60),
      "FAIL src/ledger.test.ts > rounds half-even",
      ...filler("tail", 33),
    ];
    const log = lines.join("\n");
    expect(log.length).toBeGreaterThan(12_000);
    const ex = buildExcerpt(log, "log", excerptBudget(log.length, sizing)).text;
    expect(ex.length).toBeLessThanOrEqual(2_000);
    expect(ex).toContain("line 70: ERROR step 71: test suite payments failed with exit code 2");
    expect(ex).toContain("line 131: FAIL src/ledger.test.ts > rounds half-even");
    expect(ex).toContain("head line 0");
  });
});
