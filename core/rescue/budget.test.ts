import { cutSection, fitPlan, waterFill, type Block } from "./budget";

describe("waterFill", () => {
  it("splits by weight when every section wants more than its share", () => {
    expect(waterFill([10_000, 10_000, 10_000], [0.4, 0.4, 0.2], 1000)).toEqual([400, 400, 200]);
  });

  it("renormalises over the sections present", () => {
    expect(waterFill([10_000, 10_000], [0.4, 0.2], 900)).toEqual([600, 300]);
    expect(waterFill([0, 10_000, 10_000], [0.4, 0.4, 0.2], 900)).toEqual([0, 600, 300]);
  });

  it("gives space a small section does not need to the others", () => {
    expect(waterFill([100, 10_000, 10_000], [0.4, 0.4, 0.2], 1000)).toEqual([100, 600, 300]);
  });
});

describe("cutSection", () => {
  const units = ["alpha", "bravo", "charlie", "delta"];

  it("keeps whole units from the start, or from the end for a tail", () => {
    expect(cutSection(units, 11, false)).toEqual(["alpha", "bravo"]);
    expect(cutSection(units, 13, true)).toEqual(["charlie", "delta"]);
  });

  it("cuts a unit that does not fit when enough room is left, marking the cut", () => {
    const long = ["x".repeat(100)];
    expect(cutSection(long, 30, false)).toEqual(["x".repeat(29) + "…"]);
    expect(cutSection(long, 30, true)).toEqual(["…" + "x".repeat(29)]);
    expect(cutSection(long, 10, false)).toEqual([]);
  });

  it("never splits a surrogate pair", () => {
    const [cut] = cutSection(["😀".repeat(40)], 31, false);
    expect(cut!.length).toBeLessThanOrEqual(31);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(cut!)).toBe(false);
  });
});

const lines = (tag: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${tag} ${i}`);

describe("fitPlan", () => {
  const plan: Block[] = [
    { type: "fixed", text: "header" },
    { type: "section", role: "head", units: lines("head", 500) },
    { type: "note", render: (s) => `… ${1000 - s.head - s.tail} omitted …` },
    { type: "section", role: "tail", units: lines("tail", 500) },
  ];

  it.each([200, 201, 333, 1000, 4096, 8000])("uses the cap exactly or nearly, never more (cap %i)", (cap) => {
    const { text } = fitPlan(plan, cap, 123_456);
    expect(text.length).toBeLessThanOrEqual(cap);
    expect(text.length).toBeGreaterThan(cap - 20);
    const m = /\n… \[excerpt truncated: showing ([\d,]+) of 123,456 chars\]$/.exec(text);
    expect(Number(m![1]!.replace(/,/g, ""))).toBe(text.length - m![0].length);
  });

  it("reports what it showed so notes can count the rest", () => {
    const { text, shown } = fitPlan(plan, 1000, 123_456);
    expect(text).toContain(`… ${1000 - shown.head - shown.tail} omitted …`);
    expect(text).toContain("head 0\nhead 1");
    expect(text).toContain("tail 499\n…");
  });

  it("keeps the start of fixed text when it alone is over the cap", () => {
    const { text } = fitPlan([{ type: "fixed", text: "y".repeat(5000) }], 300, 5000);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.startsWith("yyyy")).toBe(true);
    expect(text).toContain("… [excerpt truncated: showing");
  });
});
