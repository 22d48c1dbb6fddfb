import { KeptScans } from "./keptScans";

describe("KeptScans", () => {
  const text = (n: number) => `${"alpha beta gamma\n".repeat(n)}`;

  it("keeps a scan until it is forgotten, and the exact text it was made from", () => {
    const kept = new KeptScans(1_000);
    let reads = 0;
    const exact = () => (reads++, text(10));
    const first = kept.scanOf("a", "log", exact, exact);
    expect(kept.scanOf("a", "log", exact, exact)).toBe(first);
    expect(reads).toBe(2); // exact and view, once
    expect(kept.exactText("a")).toBe(text(10));
    expect(first.search("a", "gamma", 1)[0]!.snippet).toContain("gamma");
    kept.forget("a");
    expect(kept.has("a")).toBe(false);
    expect(kept.exactText("a")).toBeUndefined();
  });

  it("forgets the oldest scans to stay within its budget, and keeps none larger than it", () => {
    const kept = new KeptScans(400);
    const a = text(10); // 170 chars
    kept.scanOf(
      "a",
      "log",
      () => a,
      () => a,
    );
    kept.scanOf(
      "b",
      "log",
      () => a,
      () => a.toUpperCase(),
    ); // masked view: both texts count
    expect([kept.has("a"), kept.has("b")]).toEqual([false, true]);
    kept.scanOf(
      "c",
      "log",
      () => text(30),
      () => text(30),
    );
    expect(kept.has("c")).toBe(false);
    expect(kept.has("b")).toBe(true);
  });
});
