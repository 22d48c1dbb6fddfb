import { summarizeJson } from "./jsonSummary";
import { buildOutline } from "./outline";
import type { ShapeNode } from "./shapeNode";

/** Per-path figures, the same whether taken from a ShapeNode or from JSON.parse. */
interface PathFigures {
  types: Record<string, number>;
  nums: number[];
  strings: Map<string, number>;
  bools: [number, number];
  arrayLengths: number[];
  objectSizes: number[];
}

function figures(): PathFigures {
  return { types: {}, nums: [], strings: new Map(), bools: [0, 0], arrayLengths: [], objectSizes: [] };
}

/** The reference: every path's values, walked over JSON.parse's result in document order. */
function reference(value: unknown, path = "@", out = new Map<string, PathFigures>()): Map<string, PathFigures> {
  const f = out.get(path) ?? figures();
  out.set(path, f);
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  const name = type === "object" ? "object" : type;
  f.types[name] = (f.types[name] ?? 0) + 1;
  if (typeof value === "number") f.nums.push(value);
  else if (typeof value === "string") f.strings.set(value, (f.strings.get(value) ?? 0) + 1);
  else if (typeof value === "boolean") f.bools[value ? 0 : 1]++;
  else if (Array.isArray(value)) {
    f.arrayLengths.push(value.length);
    for (const v of value) reference(v, `${path}[]`, out);
  } else if (value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    f.objectSizes.push(entries.length);
    for (const [k, v] of entries) reference(v, `${path}.${k}`, out);
  }
  return out;
}

/** What the summary holds for each path, in the same shape (no caps are reached in these documents). */
function summarized(node: ShapeNode, path = "@", out = new Map<string, { node: ShapeNode }>()): Map<string, { node: ShapeNode }> {
  out.set(path, { node });
  for (const [k, child] of node.keys) summarized(child, `${path}.${k}`, out);
  if (node.items) summarized(node.items, `${path}[]`, out);
  return out;
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

function expectSameFigures(text: string): void {
  const want = reference(JSON.parse(text));
  const got = summarized(summarizeJson(text).root);
  expect([...got.keys()].toSorted()).toEqual([...want.keys()].toSorted());
  for (const [path, f] of want) {
    const n = got.get(path)!.node;
    expect(Object.fromEntries(n.types), path).toEqual(f.types);
    if (f.nums.length) {
      expect(n.num, path).toEqual({
        n: f.nums.length,
        ints: f.nums.filter(Number.isInteger).length,
        min: Math.min(...f.nums),
        max: Math.max(...f.nums),
        sum: sum(f.nums),
      });
    }
    if (f.strings.size) {
      // Values over 120 chars are counted by a hash, not kept: compare their counts only.
      const split = (m: Map<string, number>, long: (v: string) => boolean) => [
        new Map([...m].filter(([v]) => !long(v))),
        [...m].filter(([v]) => long(v)).map(([, c]) => c),
      ];
      expect(
        split(n.str!.values, (v) => v.startsWith("\u0000")),
        path,
      ).toEqual(split(f.strings, (v) => v.length > 120));
      expect(n.str!.n, path).toBe(sum([...f.strings.values()]));
    }
    if (f.arrayLengths.length) expect([n.arr!.n, n.arr!.total], path).toEqual([f.arrayLengths.length, sum(f.arrayLengths)]);
    if (f.objectSizes.length) expect([n.obj!.min, n.obj!.max], path).toEqual([Math.min(...f.objectSizes), Math.max(...f.objectSizes)]);
  }
}

/** A small seeded generator, so a failure names a document that can be rebuilt. */
function rng(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
}

describe("JSON summary figures", () => {
  it("equal those of JSON.parse on records with shuffled, missing and escaped keys and every number form", () => {
    const r = rng(7);
    const numbers = ["-0", "0.1", "1e5", "-2.5E-3", "123456789012345", "12345678901234567890", "3.141592653589793", "-12.50", "7"];
    // One spelling of "id" per record: JSON.parse keeps only the last of duplicate keys.
    const keys = ['"id"', '"name"', '"a b"', '"q\\"x"', '"price"', '"tags"', '""'];
    for (let doc = 0; doc < 40; doc++) {
      const records = Array.from({ length: 1 + Math.floor(r() * 60) }, () => {
        const ks = keys.filter(() => r() < 0.7);
        if (r() < 0.2) ks.reverse();
        const fields = ks.map((key) => {
          const k = key === '"id"' && r() < 0.3 ? '"\\u0069d"' : key;
          const pick = r();
          const v =
            pick < 0.3
              ? numbers[Math.floor(r() * numbers.length)]!
              : pick < 0.5
                ? (r() * 1000 - 500).toFixed(Math.floor(r() * 5))
                : pick < 0.7
                  ? JSON.stringify(["DE", "US", "é", "tab\there", "x".repeat(130 + Math.floor(r() * 3))][Math.floor(r() * 5)])
                  : pick < 0.8
                    ? '"\\u00e9"'
                    : pick < 0.9
                      ? `[${["true", "false", "null", '"a"'].slice(0, Math.floor(r() * 4)).join(", ")}]`
                      : '{ "deep": { "x": 1 } }';
          return `${k}${r() < 0.5 ? ":" : " : "}${v}`;
        });
        return `{${fields.join(r() < 0.5 ? "," : ",\n  ")}}`;
      });
      expectSameFigures(`[${records.join(",")}]`);
    }
    // Hundreds of distinct values of one length, so the in-place lookups share slots.
    expectSameFigures(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ code: `k${(i * 37) % 450}`, n: i % 3 }))));
  });

  it("counts a value written with and without escapes as one value, and stops counting values past the cap", () => {
    const records = Array.from({ length: 2000 }, (_, i) => `{"code":"c${i % 800}","country":${i % 2 ? '"\\u00e9"' : '"é"'}}`);
    const out = buildOutline(`[${records.join(",")}]`, "json");
    expect(out).toContain('[].country (2,000): string, 1 distinct: "é" 2,000');
    expect(out).toContain("[].code (2,000): string, 500+ distinct");
  });

  it("names the char where invalid JSON starts, past keys read in place, numbers and escapes", () => {
    const good = '[{"a":1,"b":2},{"a":3,"b":4}';
    const at = (tail: string) => summarizeJson(good + tail).error;
    expect(at(',{"a":5 "b":6}]')).toEqual({ at: 36, message: "expected , or a closing bracket" });
    expect(at(',{"a" 5}]')).toEqual({ at: 34, message: "expected :" });
    expect(at(',{"a":1-2}]')).toEqual({ at: 34, message: "bad number" });
    expect(at(',{"a":"\\x"}]')?.at).toBe(38);
    expect(at(',{"b":1,"a":tru}]')).toEqual({ at: 40, message: "unexpected token" });
    expect(buildOutline(good + ',{"a":5 "b":6}]', "json")).toMatch(
      /^JSON outline: 43 chars; invalid JSON at char 36 \(expected , or a closing bracket\)/,
    );
  });
});
