import { fmtStat } from "./answer";
import { fixture } from "./fetchTestUtil";
import { summarizeJson } from "./jsonSummary";
import { buildOutline } from "./outline";
import type { ShapeNode } from "./shapeNode";

/** The node at a JMESPath-like path such as `data[].items[].unitPrice`. */
function nodeAt(root: ShapeNode, path: string): ShapeNode {
  let node = root;
  for (const part of path.split(".")) {
    const name = part.replace(/\[\]/g, "");
    if (name) node = node.keys.get(name)!;
    for (let k = 0; k < (part.match(/\[\]/g)?.length ?? 0); k++) node = node.items!;
  }
  return node;
}

const stats = (xs: number[]) => ({
  n: xs.length,
  min: Math.min(...xs),
  max: Math.max(...xs),
  mean: xs.reduce((s, x) => s + x, 0) / xs.length,
});

describe("JSON outline", () => {
  const text = fixture("orders-page.json");
  const data = JSON.parse(text) as { data: { amount: number; status: string; items: { unitPrice: number }[]; coupon: string | null }[] };

  it("gives exact min/max/mean per column, matching numbers computed from JSON.parse", () => {
    const sum = summarizeJson(text);
    for (const [path, values] of [
      ["data[].amount", data.data.map((o) => o.amount)],
      ["data[].items[].unitPrice", data.data.flatMap((o) => o.items.map((i) => i.unitPrice))],
    ] as const) {
      const want = stats([...values]);
      const got = nodeAt(sum.root, path).num!;
      expect({ n: got.n, min: got.min, max: got.max, mean: got.sum / got.n }).toEqual(want);
      expect(buildOutline(text, "json")).toContain(
        `${path} (${want.n.toLocaleString("en-US")}): number min ${fmtStat(want.min)} max ${fmtStat(want.max)} mean ${fmtStat(want.mean)}`,
      );
    }
  });

  it("summarises types, presence and categorical values per path", () => {
    const out = buildOutline(text, "json");
    const paid = data.data.filter((o) => o.status === "paid").length;
    const nulls = data.data.filter((o) => o.coupon === null).length;
    expect(out).toContain(`data (1): array[${data.data.length}]`);
    expect(out).toMatch(new RegExp(`data\\[\\]\\.status \\(120\\): string, 4 distinct: .*"paid" ${paid}`));
    expect(out).toContain(`data[].coupon (120): ${nulls}× null; ${120 - nulls}× string`);
    expect(out).toContain('data[].shipping.instructions (in 1 of 120): string "leave the parcel with the harbour master"');
    expect(out.split("\n")[0]).toBe("JSON outline: 79,919 chars; exact: every value scanned");
  });

  it("reads NDJSON as records", () => {
    const events = fixture("events.ndjson");
    const records = events
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { value?: number; latencyMs: number });
    const out = buildOutline(events, "ndjson");
    expect(out.split("\n")[0]).toBe(`NDJSON outline: ${records.length} records, 22,191 chars; exact: every value scanned`);
    const values = records.flatMap((r) => (r.value === undefined ? [] : [r.value]));
    const v = stats(values);
    expect(out).toContain(
      `[].value (in ${values.length} of ${records.length}): number min ${fmtStat(v.min)} max ${fmtStat(v.max)} mean ${fmtStat(v.mean)}`,
    );
  });

  it("handles a 50 MB JSON in one bounded pass with exact numbers", () => {
    const parts: string[] = [];
    let size = 0;
    let sum = 0;
    let n = 0;
    while (size < 50_000_000) {
      const amount = ((n * 7919) % 100_000) / 100;
      sum += amount;
      const s = JSON.stringify({ id: n, amount, status: ["paid", "open", "void"][n % 3], customer: { name: `c${n % 5000}` } });
      parts.push(s);
      size += s.length + 1;
      n++;
    }
    const big = `[${parts.join(",")}]`;
    parts.length = 0;
    const before = process.memoryUsage().heapUsed;
    const summary = summarizeJson(big);
    const grown = process.memoryUsage().heapUsed - before;
    expect(summary.scannedChars).toBe(big.length);
    expect(summary.root.arr!.max).toBe(n);
    const amount = nodeAt(summary.root, "[].amount").num!;
    expect(amount.sum / amount.n).toBe(sum / n);
    expect(nodeAt(summary.root, "[].customer.name").str!.capped).toBe(true); // distinct values are bounded
    expect(grown).toBeLessThan(250_000_000);
  });

  it("says when it sampled, and when the JSON is invalid", () => {
    const arr = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ i })));
    const sampled = summarizeJson(arr, { budgetChars: 500 });
    expect(sampled.scannedChars).toBeLessThan(arr.length);
    expect(nodeAt(sampled.root, "[].i").num!.n).toBe(sampled.root.arr!.max);
    const cut = text.slice(0, 40_000);
    const out = buildOutline(cut, "json");
    expect(out.split("\n")[0]).toMatch(
      /^JSON outline: 40,000 chars; invalid JSON at char \d+ \(unexpected end\), so the statistics cover only/,
    );
    expect(out).toContain("data[].amount (");
  });

  it("survives deep nesting and map-like objects with thousands of keys", () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    expect(() => buildOutline(deep, "json")).not.toThrow();
    const map = JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`user-${i}`, { visits: i }])));
    const out = buildOutline(map, "json");
    expect(out).toContain(`*: 4,940 more keys ("user-60", "user-61", "user-62", …), values merged below`);
    expect(out).toContain("*.visits (4,940): integer");
    expect(out.length).toBeLessThan(20_000);
  });
});
