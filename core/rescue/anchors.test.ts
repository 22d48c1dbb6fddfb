import { findAnchors, isAnchorLine } from "./anchors";

describe("anchor words", () => {
  it.each([
    "error: cannot find module 'x'",
    "Error: ENOENT: no such file or directory",
    "2024-06-01 12:00:00 ERROR worker crashed",
    "[error] request timed out",
    "src/a.ts(3,4): error TS2345: Argument of type 'string'",
    "error[E0308]: mismatched types",
    "Found 3 errors in 2 files.",
    "Tests: 1 failed, 41 passed",
    "FAILED tests/test_api.py::test_refund - AssertionError",
    "FAIL src/refund.test.ts",
    "Build failure: see above",
    "fatal: not a git repository",
    "thread 'main' panicked at 'index out of bounds'",
    "Traceback (most recent call last):",
    "TypeError: undefined is not a function",
    "AssertionError [ERR_ASSERTION]: false == true",
    "java.lang.NullPointerException at com.acme.App.main",
    "raise ValueError from exc: IOException",
    "Unhandled exception in thread pool",
    "npm ERR! code ELIFECYCLE",
    "Process exited with exit code 2",
    "command returned non-zero exit status 1",
    "exited with code 137",
    "✖ 2 problems (2 errors, 0 warnings)",
  ])("promotes %j", (line) => {
    expect(isAnchorLine(line)).toBe(true);
  });

  it.each([
    "mirror: https://registry.npmmirror.com",
    "flags terrorist content for review",
    "stderr_handler flushes on close",
    "error_count=3 is only an identifier",
    "ErrorBoundary renders children",
    "Found 0 errors. Watching for file changes.",
    "lint: 0 errors, 12 warnings",
    "test result: ok. 10 passed; 0 failed; 0 ignored",
    "failures: 0",
    "errors=0",
    "No errors found",
    "Process exited with exit code 0",
    "exit status 0",
    "the exit is on the left",
  ])("does not promote %j", (line) => {
    expect(isAnchorLine(line)).toBe(false);
  });
});

describe("findAnchors", () => {
  it("reports 0-based line numbers without splitting the text into lines", () => {
    const text = ["ok", "ok", "Error: boom", "ok", "mirror", "exit code 3"].join("\n");
    const { anchors, total } = findAnchors(text);
    expect(anchors.map((a) => [a.line, a.text])).toEqual([
      [2, "Error: boom"],
      [5, "exit code 3"],
    ]);
    expect(total).toBe(2);
  });

  it("folds near-identical lines that differ only in numbers and ids", () => {
    const text = Array.from(
      { length: 50 },
      (_, i) => `12:00:${String(i).padStart(2, "0")} ERROR retry ${i} for job 0x${(i * 4099).toString(16)}`,
    ).join("\n");
    const { anchors, total } = findAnchors(text);
    expect(anchors).toHaveLength(1);
    expect(anchors[0]!.count).toBe(50);
    expect(anchors[0]!.line).toBe(0);
    expect(total).toBe(50);
  });

  it("keeps a window around the signal in a very long line", () => {
    const text = "x".repeat(100_000) + " FATAL: disk full " + "y".repeat(100_000);
    const [a] = findAnchors(text).anchors;
    expect(a!.line).toBe(0);
    expect(a!.text.length).toBeLessThanOrEqual(2000);
    expect(a!.text.slice(a!.hit, a!.hit + 5)).toBe("FATAL");
  });

  it("counts anchors past the keep limit without keeping them", () => {
    const text = Array.from(
      { length: 30 },
      (_, i) => `error in module ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ).join("\n");
    const { anchors, total } = findAnchors(text, 10);
    expect(anchors).toHaveLength(10);
    expect(total).toBe(30);
  });
});
