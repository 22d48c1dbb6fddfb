import { fixture } from "./fetchTestUtil";
import { buildOutline } from "./outline";
import { summarizeLog } from "./outlineLog";

describe("log outline", () => {
  const log = fixture("nightly-batch.log");
  const lines = log.split("\n");

  it("clusters signals with counts and the first line (number and text)", () => {
    const { clusters, lines: n } = summarizeLog(log);
    expect(n).toBe(lines.length - 1);
    const by = Object.fromEntries(clusters.map((c) => [c.name, c]));
    const countLines = (re: RegExp) => lines.filter((l) => re.test(l)).length;
    expect(by["error"]!.count).toBe(countLines(/error(?:s|ed)?(?![a-z])/i) - countLines(/\b0 errors\b/));
    expect(by["exit code 137"]!.count).toBe(1);
    expect(by["traceback"]!.count).toBe(1);
    const firstErr = lines.findIndex((l) => /ERROR/.test(l));
    expect(by["error"]!.first).toEqual({ line: firstErr, text: lines[firstErr] });
    const out = buildOutline(log, "log");
    expect(out).toContain(`exit code 137 ×1: first L${lines.findIndex((l) => l.includes("exited with code 137"))}: `);
    expect(out).toMatch(/^failed ×\d+: first L\d+: /m);
  });

  it("catches glued and plural forms and ignores reported absences", () => {
    const text = [
      "TypeError: x is undefined",
      "AssertionError: expected 1",
      "3 errors found",
      "build finished with 0 errors and 0 warnings",
      "DeprecationWarning: old api",
      "java.lang.IllegalStateException: boom",
      "2 tests FAILED",
      "falling back to failover replica",
      "Process finished with exit code 1",
      "exit_status=2",
      "panic: runtime error: index out of range",
    ].join("\n");
    const by = Object.fromEntries(summarizeLog(text).clusters.map((c) => [c.name, c.count]));
    expect(by).toEqual({ error: 4, warning: 1, exception: 1, failed: 1, "exit code 1": 1, "exit code 2": 1, fatal: 1 });
  });

  it("says so when a log has no signals", () => {
    expect(buildOutline("all good\nstill good\n", "log").split("\n")[0]).toBe("Log outline: 2 lines; no error, warning or failure signals");
  });
});
