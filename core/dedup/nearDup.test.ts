import { nearDuplicate, renderNearStub } from "./nearDup";

const lines = (n: number, f = (i: number) => `line ${i}: built module ${i}`) => Array.from({ length: n }, (_, i) => f(i)).join("\n");

describe("near-duplicates", () => {
  it("finds the changed lines of a result that repeats an earlier one but for a few", () => {
    const a = lines(100);
    const b = lines(100, (i) => (i === 42 ? "line 42: FAILED" : `line ${i}: built module ${i}`));
    expect(nearDuplicate(a, b, 0.1, 20)).toEqual({ changed: [{ line: 42, text: "line 42: FAILED" }], removed: 1, lines: 100 });
    const stub = renderNearStub({ tool: "build", id: "bbbbbbbbbbbb", earlierId: "aaaaaaaaaaaa", chars: b.length, diff: nearDuplicate(a, b, 0.1, 20)! });
    expect(stub).toMatch(/^\[spillway: build returned [\d,]+ chars that repeat an earlier result \(result aaaaaaaaaaaa, already in your context\) except 1 of 100 lines/);
    expect(stub).toContain('recall_result(result_id="bbbbbbbbbbbb")');
    expect(stub.split("\n").slice(1)).toEqual(["L42: line 42: FAILED"]);
  });

  it("an appended line counts as changed; too many changes, too few lines or no change at all is no near-duplicate", () => {
    expect(nearDuplicate(lines(100), lines(101), 0.1, 20)?.changed).toEqual([{ line: 100, text: "line 100: built module 100" }]);
    expect(nearDuplicate(lines(100), lines(100, (i) => (i < 20 ? `x${i}` : `line ${i}: built module ${i}`)), 0.1, 20)).toBeNull();
    expect(nearDuplicate(lines(10), lines(11), 0.5, 20)).toBeNull();
    expect(nearDuplicate(lines(100), lines(100), 0.1, 20)).toBeNull();
    expect(nearDuplicate(lines(100), lines(150), 0.1, 20)).toBeNull();
  });
});
