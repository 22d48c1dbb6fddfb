import fc from "fast-check";
import { diffLines, volatileKey, type LineDiff } from "./lineDiff";

/** Applies a diff to the old lines: what a reader of the stub reconstructs. */
function apply(oldLines: string[], newLines: string[], d: LineDiff): string[] {
  const out: string[] = [];
  let i = 0;
  for (const h of d.hunks) {
    out.push(...oldLines.slice(i, h.oldStart));
    out.push(...newLines.slice(h.newStart, h.newEnd));
    i = h.oldEnd;
  }
  out.push(...oldLines.slice(i));
  return out;
}

const run = (seed: string, failing: string[] = []): string[] => [
  `RUN  v4.1.12 /tmp/vitest-${seed}/project`,
  ...Array.from({ length: 40 }, (_, i) => `✓ src/module${i}.test.ts > case ${i} (${(i * 7 + seed.length) % 90} ms)`),
  ...failing,
  `Test Files  ${failing.length ? "1 failed | " : ""}40 passed (41)`,
  `Duration  ${seed.length + 2}.31s (transform 412ms, setup 0ms)`,
  `Start at  09:${seed.length + 10}:02`,
];

describe("volatileKey", () => {
  it("blanks timings, timestamps, temp paths and ids, and keeps counts", () => {
    expect(volatileKey("✓ parses dates (12 ms)")).toBe(volatileKey("✓ parses dates (340 ms)"));
    expect(volatileKey("took=1920ms")).toBe(volatileKey("took=88ms"));
    expect(volatileKey("[2024-05-14T02:00:52.837Z] ok")).toBe(volatileKey("[2025-01-01T10:11:12.001Z] ok"));
    expect(volatileKey("[09:14:02] step")).toBe(volatileKey("[11:00:59] step"));
    expect(volatileKey("wrote /tmp/vitest-a1b2/out.json")).toBe(volatileKey("wrote /tmp/vitest-zz99/out.json"));
    expect(volatileKey("commit 3f9a0c1d2e4b5a6f")).toBe(volatileKey("commit 0a1b2c3d4e5f6a7b"));
    expect(volatileKey("job exited after 41m12s")).toBe(volatileKey("job exited after 3m2s"));
    expect(volatileKey("Tests: 41 passed")).not.toBe(volatileKey("Tests: 40 passed"));
    expect(volatileKey("exit code 137")).not.toBe(volatileKey("exit code 0"));
    expect(volatileKey("Duration  2.31s (transform 412ms)")).toBe(volatileKey("Duration  10.02s (transform 98ms)"));
    expect(volatileKey("id 123e4567-e89b-12d3-a456-426614174000 done")).toBe(volatileKey("id 00000000-1111-2222-3333-444444444444 done"));
    expect(volatileKey("cache at /var/folders/xy/T/jest_1a/map")).toBe(volatileKey("cache at /var/folders/ab/T/jest_9z/map"));
    expect(volatileKey("expected 0.5 to equal 1")).not.toBe(volatileKey("expected 0.7 to equal 1"));
    expect(volatileKey("limit 8Gi on port 5432")).toBe("limit 8Gi on port 5432");
    expect(volatileKey("half-even rounding_mode v4.1.12")).toBe("half-even rounding_mode v4.1.12");
  });
});

describe("diffLines", () => {
  it("finds one inserted failure among lines whose timings all changed", () => {
    const a = run("first");
    const b = run("second", ["FAIL src/ledger.test.ts > rounds half-even", "  AssertionError: expected 0.5 to be 1"]);
    const d = diffLines(a, b)!;
    expect(d.hunks).toHaveLength(1);
    // The failure block is inserted; the summary line's count changed; timings are volatile.
    expect(b.slice(d.hunks[0]!.newStart, d.hunks[0]!.newEnd)).toEqual([
      "FAIL src/ledger.test.ts > rounds half-even",
      "  AssertionError: expected 0.5 to be 1",
      "Test Files  1 failed | 40 passed (41)",
    ]);
    expect(a.slice(d.hunks[0]!.oldStart, d.hunks[0]!.oldEnd)).toEqual(["Test Files  40 passed (41)"]);
    expect(d.changed).toBe(4);
    expect(d.volatile.length).toBeGreaterThan(30);
    for (const [i, j] of d.volatile) expect(volatileKey(a[i]!)).toBe(volatileKey(b[j]!));
  });

  it("reports nothing for identical lines, and every line for unrelated ones", () => {
    expect(diffLines(["a", "b"], ["a", "b"])).toEqual({ hunks: [], changed: 0, volatile: [] });
    const d = diffLines(["a", "b", "c"], ["x", "y"])!;
    expect(d.changed).toBe(5);
    expect(apply(["a", "b", "c"], ["x", "y"], d)).toEqual(["x", "y"]);
  });

  it("gives up as soon as more lines change than allowed", () => {
    expect(diffLines(["a", "b", "c", "d"], ["w", "x", "y", "z"], 3)).toBeNull();
    expect(diffLines(["a", "b", "c", "d"], ["a", "x", "c", "d"], 3)).not.toBeNull();
  });

  it("shows a moved block as removed and added, never in the wrong order", () => {
    const a = ["h1", "A", "B", "C", "m1", "m2", "m3", "D", "E"];
    const b = ["h1", "m1", "m2", "m3", "A", "B", "C", "D", "E"];
    const d = diffLines(a, b)!;
    expect(apply(a, b, d)).toEqual(b);
    expect(d.changed).toBe(6);
  });

  it("any edit, applied to the old lines, rebuilds the new lines up to volatile spans", () => {
    const line = fc.constantFrom("alpha", "beta", "gamma", "", "  at x (1 ms)", "  at x (9 ms)", "delta", "ok /tmp/a1", "ok /tmp/b2");
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(line, { maxLength: 40 }), (a, b) => {
        const d = diffLines(a, b)!;
        expect(apply(a, b, d).map(volatileKey)).toEqual(b.map(volatileKey));
        const changedOld = d.hunks.reduce((n, h) => n + h.oldEnd - h.oldStart, 0);
        const changedNew = d.hunks.reduce((n, h) => n + h.newEnd - h.newStart, 0);
        expect(d.changed).toBe(changedOld + changedNew);
        expect(a.length - changedOld).toBe(b.length - changedNew);
      }),
      { numRuns: 300 },
    );
  });
});
