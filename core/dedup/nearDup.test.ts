import { nearDuplicateBase, renderNearStub, type NearStubInput } from "./nearDup";

const testLog = (timing: number, extra: string[] = []): string =>
  [
    `RUN  v4.1.12 /tmp/vitest-${timing}/payments`,
    ...Array.from({ length: 120 }, (_, i) => `✓ src/suite${i}.test.ts > computes case ${i} correctly (${(i * timing) % 97} ms)`),
    ...extra,
    `Tests  ${extra.length ? "1 failed | " : ""}120 passed`,
    `Duration  ${timing}.2s`,
  ].join("\n") + "\n";

const input = (over: Partial<NearStubInput> = {}): NearStubInput => ({
  tool: "run_tests",
  baseId: "aaaaaaaaaaaa",
  baseText: testLog(3),
  id: "bbbbbbbbbbbb",
  text: testLog(7, ["FAIL src/ledger.test.ts > rounds half-even", "  AssertionError: expected 0.5 to equal 1"]),
  maxChangedShare: 0.2,
  maxChars: 2_000,
  ...over,
});

describe("renderNearStub", () => {
  it("names the earlier result and lists only the changed lines, with 0-based line numbers", () => {
    const stub = renderNearStub(input())!;
    const [head, ...body] = stub.split("\n");
    expect(head).toMatch(
      /^\[spillway: run_tests returned [\d,]+ chars, stored as bbbbbbbbbbbb: the same as this call's earlier result aaaaaaaaaaaa except the lines below \(0-based; "-" earlier, "\+" new, "~" only its timings, timestamps, temp paths or ids changed: 1 removed, 3 added, 2 retimed\); 118 more lines differ only in timings, timestamps, temp paths or ids\./,
    );
    expect(head).toContain('recall_result(result_id="bbbbbbbbbbbb")');
    // The report's first and last lines are listed with their new timings: a duration is often asked.
    expect(body).toEqual([
      "~0: RUN  v4.1.12 /tmp/vitest-7/payments",
      "-121: Tests  120 passed",
      "+121: FAIL src/ledger.test.ts > rounds half-even",
      "+122:   AssertionError: expected 0.5 to equal 1",
      "+123: Tests  1 failed | 120 passed",
      "~124: Duration  7.2s",
    ]);
    expect(stub.length).toBeLessThan(input().text.length / 10);
  });

  it("lists a few retimed lines, and only counts many", () => {
    const stub = renderNearStub(input({ text: testLog(9) }))!;
    expect(
      stub
        .split("\n")
        .slice(1)
        .every((l) => l.startsWith("~")),
    ).toBe(true);
    expect(stub).toMatch(/: 4 retimed\); 116 more lines differ only in timings/);
    const middle = (t: number) =>
      [
        "nightly pipeline",
        "",
        ...Array.from({ length: 40 }, (_, i) => `step ${i} of the nightly pipeline took ${t + i} ms`),
        "",
        "all steps done",
        "artifacts uploaded",
        "end",
      ].join("\n");
    const only = renderNearStub(input({ baseText: middle(1), text: middle(5), maxChars: 4_000 }))!;
    expect(only.split("\n")).toHaveLength(1);
    expect(only).toMatch(/earlier result aaaaaaaaaaaa except that 40 lines differ only in timings, timestamps, temp paths or ids\./);
    const fewer = (t: number) =>
      ["report", `built at 10:0${t}:00`, ...Array.from({ length: 60 }, (_, i) => `row ${i} of the unchanged table`)].join("\n");
    expect(
      renderNearStub(input({ baseText: fewer(1), text: fewer(2) }))!
        .split("\n")
        .slice(1),
    ).toEqual(["~1: built at 10:02:00"]);
  });

  it("is withheld when too many lines changed, when it would outgrow the budget or half the result, or for one-line results", () => {
    const rewritten = testLog(3).replace(/computes/g, "verifies");
    expect(renderNearStub(input({ text: rewritten }))).toBeNull();
    const manyFailures = Array.from(
      { length: 20 },
      (_, i) => `FAIL src/f${i}.test.ts > a long failing test name that takes room ${"x".repeat(60)}`,
    );
    expect(renderNearStub(input({ text: testLog(7, manyFailures) }))).toBeNull();
    expect(renderNearStub(input({ text: testLog(7, manyFailures), maxChars: 4_000 }))).not.toBeNull();
    expect(renderNearStub(input({ baseText: "a\nb\nc\n", text: "a\nB\nc\n", maxChars: 4_000 }))).toBeNull();
    expect(renderNearStub(input({ baseText: '{"a":1,"b":2}', text: '{"a":1,"b":3}' }))).toBeNull();
  });

  it("cuts a very long changed line and says by how much", () => {
    const long = "E".repeat(1_000);
    const stub = renderNearStub(input({ text: testLog(7, [long]), maxChars: 4_000 }))!;
    expect(stub).toContain(`+121: ${"E".repeat(300)}… [+700 chars]`);
  });
});

describe("nearDuplicateBase", () => {
  const base = {
    enabled: true,
    contentId: "new",
    streak: { blobId: "old", count: 2 },
    generation: 1,
    maxStubStreak: 5,
    heldGeneration: () => 1,
  };

  it("offers the key's last result while the session holds it in this generation, continuing the streak", () => {
    expect(nearDuplicateBase(base)).toEqual({ baseId: "old", nextCount: 3 });
  });

  it("offers nothing when off, with no earlier result, after a compaction or at the streak guard", () => {
    expect(nearDuplicateBase({ ...base, enabled: false })).toBeNull();
    expect(nearDuplicateBase({ ...base, streak: null })).toBeNull();
    expect(nearDuplicateBase({ ...base, streak: { blobId: "new", count: 0 } })).toBeNull();
    expect(nearDuplicateBase({ ...base, heldGeneration: () => 0 })).toBeNull();
    expect(nearDuplicateBase({ ...base, heldGeneration: () => null })).toBeNull();
    expect(nearDuplicateBase({ ...base, streak: { blobId: "old", count: 5 } })).toBeNull();
  });
});
