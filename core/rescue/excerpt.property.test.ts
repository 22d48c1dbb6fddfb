import { readFileSync } from "node:fs";
import fc from "fast-check";
import type { Kind } from "../types";
import { buildExcerpt } from "./excerpt";
import { detectKind, detectKindScanned } from "./kind";

const KINDS: Kind[] = ["json", "ndjson", "csv", "tsv", "html", "xml", "markdown", "code", "log", "text"];
const kindArb = fc.constantFrom(...KINDS);
const capArb = fc.oneof(fc.integer({ min: -50, max: 12_000 }), fc.constantFrom(200, 201, 500, 8000));

/** The cap buildExcerpt promises for a requested maxChars. */
const promised = (cap: number): number => Math.max(200, Math.floor(cap));

function holds(text: string, kind: Kind, cap: number): void {
  const ex = buildExcerpt(text, kind, cap);
  expect(typeof ex.text).toBe("string");
  expect(ex.text.length).toBeLessThanOrEqual(promised(cap));
  if (!ex.truncated) expect(ex.text).toBe(text);
}

const lineArb = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    "ERROR boom",
    "error TS2345: bad",
    "FAILED x",
    "exit code 3",
    "mirror terrorist",
    "0 errors",
    "TypeError: x",
    "# Heading",
    "a,b,c",
    "\t\t",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const textArb = fc.oneof(
  fc.string({ maxLength: 3000 }),
  fc.string({ unit: "binary", maxLength: 3000 }),
  fc.string({ unit: "grapheme", maxLength: 1000 }),
  fc.string({
    unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", ",", ":", "\n", "<", ">", "/", "a", "\ud800", "\udc00", "\u0000"),
    maxLength: 4000,
  }),
  fc.array(lineArb, { maxLength: 400 }).map((ls) => ls.join("\n")),
  fc.json({ maxDepth: 6 }).chain((j) => fc.constantFrom(j, JSON.stringify(JSON.parse(j), null, 2))),
  fc.array(fc.json({ maxDepth: 3 }), { maxLength: 300 }).map((xs) => xs.join("\n")),
);

describe("buildExcerpt properties", () => {
  it("never throws and never exceeds the cap on random text, any kind", () => {
    fc.assert(
      fc.property(textArb, kindArb, capArb, (text, kind, cap) => holds(text, kind, cap)),
      { numRuns: 600 },
    );
  });

  it("holds for text padded far beyond the cap", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 2, max: 40 }), kindArb, capArb, (text, times, kind, cap) => {
        holds(text.repeat(times) + "x".repeat(9000), kind, cap);
      }),
      { numRuns: 200 },
    );
  });

  it("classifies whatever it is given and builds an excerpt for the detected kind", () => {
    fc.assert(
      fc.property(textArb, capArb, (text, cap) => {
        const { kind, shape } = detectKind(text);
        expect(KINDS).toContain(kind);
        expect(shape.includes("\n")).toBe(false);
        holds(text, kind, cap);
      }),
      { numRuns: 300 },
    );
  });

  it("never leaks script, style or comment content from random HTML", () => {
    const word = fc.stringMatching(/^[a-z ]{0,20}$/);
    const piece = fc.oneof(
      word,
      word.map((w) => `<p>${w}</p>`),
      word.map((w) => `<h2 class="a>b">${w}</h2>`),
      fc.constantFrom("script", "SCRIPT", "ScRiPt", "style", "template", "noscript").chain((tag) =>
        fc.constantFrom(
          `<${tag}>ZQX var a = "</div>" < 1;</${tag}>`,
          `<${tag} type="text/x">ZQX</${tag} >`,
          `<${tag}>ZQX`, // never closed: the rest of the page is swallowed
          `<${tag} src="x">ZQX</${tag}\n>`,
        ),
      ),
      fc.constant("<!-- ZQX comment -->"),
      fc.constant('<a href="#" onclick="ZQX()">link</a>'),
      fc.constant("<![CDATA[ZQX]]>"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), fc.constantFrom(200, 500, 8000), (pieces, cap) => {
        const ex = buildExcerpt(`<html><body>${pieces.join("\n")}</body></html>`, "html", cap);
        expect(ex.text).not.toContain("ZQX");
        expect(ex.text.length).toBeLessThanOrEqual(cap);
      }),
      { numRuns: 300 },
    );
  });
});

describe("buildExcerpt on hostile inputs", () => {
  // Built lazily and once: some are megabytes long.
  const cache = new Map<string, string>();
  const builders: Record<string, () => string> = {
    empty: () => "",
    "one 5 MB line": () => "ab,cd ".repeat(850_000),
    "100k levels of [": () => "[".repeat(100_000),
    "100k levels closed": () => "[".repeat(100_000) + "]".repeat(100_000),
    "50k nested objects": () => '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000),
    "lone surrogates": () => "\ud800x\udc00y".repeat(50_000) + "\ud83d",
    "NUL bytes": () => "\u0000".repeat(100_000) + "error\u0000here\n" + "\u0000".repeat(100_000),
    "1 M tiny lines": () => "a\n".repeat(1_000_000),
    "1 M empty lines": () => "\n".repeat(1_000_000),
    "minified 3 MB array": () =>
      "[" + Array.from({ length: 40_000 }, (_, i) => `{"id":${i},"s":"\\"q\\" ${"v".repeat(50)}"}`).join(",") + "]",
    "unterminated string": () => '{"a": "' + "x".repeat(300_000),
    "anchor on every line": () => "ERROR line\n".repeat(200_000),
    "one 2 MB html line": () => "<div>" + "<b>x</b>".repeat(250_000),
    "random unicode": () => {
      let s = "";
      for (let i = 0; i < 200_000; i++) s += String.fromCharCode((i * 7919) % 0x10000);
      return s;
    },
  };
  const get = (name: string): string => {
    if (!cache.has(name)) cache.set(name, builders[name]!());
    return cache.get(name)!;
  };

  it("never throws and never exceeds the cap for every kind and cap", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(builders)), kindArb, fc.constantFrom(200, 500, 8000), (name, kind, cap) => {
        holds(get(name), kind, cap);
      }),
      { numRuns: 120 },
    );
  });

  it.each(Object.keys(builders))("detects a kind for %s without throwing", (name) => {
    const text = get(name);
    const { kind } = detectKind(text);
    holds(text, kind, 8000);
  });
});

describe("one scan of a JSON document", () => {
  // JSON of every top-level shape the excerpt treats apart: objects, arrays of objects, arrays of
  // scalars, with fewer and more entries than the scan keeps, nested, and pretty or minified.
  const valueArb = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 30 }),
    fc.boolean(),
    fc.constant(null),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 20 })), { maxKeys: 6 }),
    fc.array(fc.integer(), { maxLength: 6 }),
  );
  const docArb = fc.oneof(
    fc.array(valueArb, { maxLength: 120 }),
    fc.array(fc.integer(), { maxLength: 200 }),
    fc.dictionary(fc.string({ maxLength: 12 }), valueArb, { maxKeys: 80 }),
  );

  it.each(["json/transactions.json", "json/minified.json"])("excerpts %s from the detection's scan, byte for byte", (rel) => {
    const text = readFileSync(new URL(`../../tests/fixtures/${rel}`, import.meta.url), "utf8");
    const d = detectKindScanned(text);
    expect(d.scan).toBeDefined();
    for (const cap of [2000, 8000]) expect(buildExcerpt(text, "json", cap, d.scan)).toEqual(buildExcerpt(text, "json", cap));
  });

  it("gives the detection's scan to the excerpt with the same excerpt as scanning again", () => {
    fc.assert(
      fc.property(docArb, fc.boolean(), fc.constantFrom(200, 600, 2000, 8000), (doc, pretty, cap) => {
        const text = JSON.stringify(doc, null, pretty ? 2 : undefined);
        const d = detectKindScanned(text);
        expect({ kind: d.kind, shape: d.shape }).toEqual(detectKind(text));
        if (d.kind !== "json" || !d.scan) return;
        expect(buildExcerpt(text, "json", cap, d.scan)).toEqual(buildExcerpt(text, "json", cap));
      }),
      { numRuns: 400 },
    );
  });
});
