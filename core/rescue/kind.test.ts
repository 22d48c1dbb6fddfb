import { readFileSync } from "node:fs";
import { countRecords, detectKind } from "./kind";

const fixture = (rel: string): string => readFileSync(new URL(`../../tests/fixtures/${rel}`, import.meta.url), "utf8");

describe("detectKind on realistic results", () => {
  it.each([
    ["json/transactions.json", "json", "array[2000] of object{id,date,amount,currency}"],
    ["json/minified.json", "json", "object{meta,results,next}, .results: array[1550] of object{7 keys: id,sku,title,price,…}"],
    ["ndjson/events.ndjson", "ndjson", "1,500 records of object{ts,level,service,msg,latency_ms,request_id}"],
    ["csv/transactions.csv", "csv", "8 columns × 2,000 rows"],
    ["log/build.log", "log", "2,150 lines"],
    ["html/page.html", "html", 'page "Quarterly Report Q3 2024", 12 headings'],
    ["markdown/guide.md", "markdown", "61 headings, 813 lines"],
    ["xml/feed.xml", "xml", "root <rss>, 1,803 elements"],
  ])("%s is %s with shape %s", (rel, kind, shape) => {
    expect(detectKind(fixture(rel))).toEqual({ kind, shape });
  });
});

describe("detectKind edge cases", () => {
  it.each([
    ["", "text"],
    ["   \n\t", "text"],
    ['"a JSON string"', "json"],
    ["42", "json"],
    ["null", "json"],
    ["[1, 2, 3]", "json"],
    ['{"a": 1}\n{"a": 2}\n{"a": 3}\n', "ndjson"],
    ["[1,2]\n[3,4]\n", "ndjson"],
    ['{\n  "a": 1,\n  "b": [1, 2]\n}\n', "json"],
    ["{ not: json }", "code"],
    ['{"a": 1', "text"],
    ["[2024-06-01 10:00:00] INFO started\n[2024-06-01 10:00:01] WARN slow\n[2024-06-01 10:00:02] INFO done", "log"],
    ["a\tb\tc\n1\t2\t3\n4\t5\t6\n7\t8\t9", "tsv"],
    ['<?xml version="1.0"?><feed><title>t</title><entry/></feed>', "xml"],
    ["<div><p>fragment</p></div>", "html"],
    [
      '<p align="center"><img src="logo.png"></p>\n\n# Project\n\nSome text with `code`.\n\n## Install\n\n- step one\n- step two\n',
      "markdown",
    ],
    ["import { x } from './y';\nexport function f(a: string): number {\n  return a.length;\n}\n", "code"],
    ["The quick brown fox jumps over the lazy dog.\nIt was a sunny day, and nothing happened.\n", "text"],
  ])("%j is %s", (text, kind) => {
    expect(detectKind(text).kind).toBe(kind);
  });

  it("describes JSON scalars and code by language", () => {
    expect(detectKind('"' + "x".repeat(100) + '"').shape).toBe("string (100 chars)");
    expect(detectKind("import { x } from './y';\nexport const a: string = x;\nfunction f() {}\n").shape).toBe("typescript, 3 lines");
  });

  it("prefers log over CSV for logs whose timestamp carries one comma", () => {
    const log = Array.from({ length: 20 }, (_, i) => `2024-06-01 10:00:${String(i).padStart(2, "0")},123 INFO worker: job ${i} done`).join(
      "\n",
    );
    expect(detectKind(log).kind).toBe("log");
  });

  it("counts CSV records whose quoted fields span lines", () => {
    expect(countRecords('a,b\n1,"x\ny"\n2,"z"\n')).toBe(3);
    expect(countRecords("a,b\n1,2")).toBe(2);
    expect(countRecords('a,b\n1,"say ""hi"""\n')).toBe(2);
  });

  it("survives hostile input without throwing", () => {
    for (const t of [
      "[".repeat(100_000),
      "{".repeat(50_000) + "}",
      "\ud800\udfff\ud800",
      "\u0000".repeat(1000),
      '"\\',
      "<".repeat(10_000),
    ]) {
      expect(() => detectKind(t)).not.toThrow();
    }
  });

  it("classifies a 20 MB minified array by its structure (the time it takes is in npm run bench)", () => {
    const item = JSON.stringify({ id: 1, name: "widget", tags: ["a", "b"], price: { amount: 9.99, currency: "EUR" } });
    const text = "[" + Array.from({ length: 20_000_000 / item.length }, () => item).join(",") + "]";
    const { kind, shape } = detectKind(text);
    expect(kind).toBe("json");
    expect(shape).toMatch(/^array\[\d+\] of object\{id,name,tags,price\}$/);
  });
});

describe("detectKind on documents too big to parse whole", () => {
  const row = (i: number) => `{"id": ${i}, "note": "row ${i}", "ok": true}`;
  const array = (rows: string[]) => `[\n${rows.join(",\n")}\n]`;
  const rows = Array.from({ length: 3_000 }, (_, i) => row(i));

  it("is JSON when its structure closes and the entries it keeps parse", () => {
    expect(array(rows).length).toBeGreaterThan(64 * 1024);
    expect(detectKind(array(rows))).toEqual({ kind: "json", shape: "array[3000] of object{id,note,ok}" });
  });

  it.each([
    ["a single-quoted key in the first entries", (r: string[]) => r.with(3, `{'id': 3, "note": "row 3", "ok": true}`)],
    ["a NaN among the last entries", (r: string[]) => r.with(r.length - 2, `{"id": NaN, "note": "row", "ok": true}`)],
    ["a missing comma in the first entries", (r: string[]) => r.with(5, `{"id": 5 "note": "row 5", "ok": true}`)],
    ["a bare word as an entry", (r: string[]) => r.with(0, "undefined")],
  ])("is not JSON with %s", (_, spoil) => {
    expect(detectKind(array(spoil(rows))).kind).not.toMatch(/json/);
  });

  it("checks an object's keys as JSON strings", () => {
    const obj = `{${rows.map((r, i) => `"k${i}": ${r}`).join(",\n")}}`;
    expect(detectKind(obj).kind).toBe("json");
    expect(detectKind(obj.replace('"k1":', "k1:")).kind).not.toBe("json");
  });
});
