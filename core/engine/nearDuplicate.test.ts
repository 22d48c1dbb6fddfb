import { parseConfig } from "../config/config";
import { createEngine } from "./engine";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";

/** A test run's output: every timing and the temp dir change between runs; `failing` adds failures. */
function testRun(run: number, failing: string[] = [], suites = 150): string {
  const lines = [`RUN  v4.1.12 /tmp/vitest-${run}x${run * 7}/payments`];
  for (let i = 0; i < suites; i++) lines.push(`✓ src/module${i}.test.ts > handles case ${i} of the ledger (${(i * 13 + run * 5) % 91} ms)`);
  for (const f of failing) lines.push(`FAIL src/${f}.test.ts > ${f} rounds half-even`, `  AssertionError: expected 0.5 to equal 1 in ${f}`);
  lines.push(`Tests  ${failing.length ? `${failing.length} failed | ` : ""}${suites} passed`, `Duration  ${run + 1}.4${run}s`);
  return lines.join("\n") + "\n";
}

describe("near-duplicate stubs", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const make = (cfg: unknown = {}) =>
    createEngine({ home: home.path, config: parseConfig(cfg), clock: new FakeClock(), logger: memoryLogger() });
  const args = { command: "npm test" };

  it("a re-run with one new failure reaches the model as a stub naming the earlier result plus the changed lines", async () => {
    const e = make();
    const first = testRun(1);
    const second = testRun(2, ["ledger"]);
    const a = e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: first });
    expect(a.outcome).toBe("passthrough");
    const b = e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: second });
    expect(b.outcome).toBe("stubbed");
    expect(b.reason).toBe("near_duplicate");
    expect(b.blobId).not.toBe(a.blobId);
    expect(b.text).toContain(`earlier result ${a.blobId}`);
    expect(b.text).toContain("+151: FAIL src/ledger.test.ts > ledger rounds half-even");
    expect(b.text).toContain("+152:   AssertionError: expected 0.5 to equal 1 in ledger");
    expect(b.text).toContain("-151: Tests  150 passed");
    expect(b.text).toContain("+153: Tests  1 failed | 150 passed");
    expect(b.text.length).toBeLessThan(second.length / 10);
    // Both results are stored whole: recall gives each one's exact bytes.
    expect(e.recall("s", b.blobId).text).toBe(second);
    expect(e.recall("s", a.blobId).text).toBe(first);
    await e.close();
  });

  it("replaces the handle of a large near-repeat, and the new result can be fetched", async () => {
    const e = make();
    const first = testRun(1, [], 600);
    expect(first.length).toBeGreaterThan(12_000);
    const a = e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: first });
    expect(a.outcome).toBe("rescued");
    const b = e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: testRun(2, ["ledger"], 600) });
    expect(b).toMatchObject({ outcome: "stubbed", reason: "near_duplicate" });
    expect(b.text.length).toBeLessThan(a.text.length / 3);
    const grep = e.fetch({ sessionId: "s", id: b.blobId, mode: "grep", args: { pattern: "AssertionError" } });
    expect(grep.text).toContain("L602:   AssertionError");
    expect(grep.text).toContain("expected 0.5 to equal 1 in ledger");
    await e.close();
  });

  it("shares the streak guard with exact stubs, and a compaction delivers in full once more", async () => {
    const e = make();
    const call = (run: number) => e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: testRun(run) }).outcome;
    expect([1, 2, 3, 3, 4, 5, 6].map(call)).toEqual(["passthrough", "stubbed", "stubbed", "stubbed", "stubbed", "stubbed", "passthrough"]);
    expect(call(7)).toBe("stubbed");
    e.compaction("s");
    expect([8, 9].map(call)).toEqual(["passthrough", "stubbed"]);
    await e.close();
  });

  it("is only against the same call in the same session, never for errors, large changes or when turned off", async () => {
    const e = make();
    e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: testRun(1) });
    expect(
      e.transformToolResult({ sessionId: "s", tool: "run_tests", args: { command: "npm run e2e" }, text: testRun(2) }).outcome,
      "other args",
    ).toBe("passthrough");
    expect(e.transformToolResult({ sessionId: "t", tool: "run_tests", args, text: testRun(3) }).outcome, "other session").toBe(
      "passthrough",
    );
    expect(e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: testRun(4), isError: true }).outcome, "error").toBe(
      "passthrough",
    );
    const rewritten = testRun(5).replace(/handles case/g, "covers case");
    expect(e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: rewritten }).outcome, "rewritten").toBe("passthrough");
    await e.close();
    const off = make({ dedup: { nearDuplicates: false } });
    off.transformToolResult({ sessionId: "u", tool: "run_tests", args, text: testRun(1) });
    expect(off.transformToolResult({ sessionId: "u", tool: "run_tests", args, text: testRun(2) }).outcome, "off").toBe("passthrough");
    await off.close();
  });

  it("masks a secret on a changed line, in the stub as everywhere else", async () => {
    const e = make();
    e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: testRun(1) });
    const secret = "AKIAIOSFODNN7EXAMPLE";
    const leaked = testRun(2).replace("Tests  150 passed", `Tests  150 passed\nenv AWS_ACCESS_KEY_ID=${secret}`);
    const b = e.transformToolResult({ sessionId: "s", tool: "run_tests", args, text: leaked });
    expect(b.outcome).toBe("stubbed");
    expect(b.text).toContain("+152: env AWS_ACCESS_KEY_ID=");
    expect(b.text).not.toContain(secret);
    await e.close();
  });
});
