/**
 * Sessions over the fixture server (tests/mcp/fixtures): CI debugging, where the test report
 * changes a little between runs (timings, temp dir, clock, one new failure), and a build log
 * that grows between reads.
 */
import type { Session } from "../agent";
import { upstream } from "./world";

const world = async () => ({ servers: { fx: upstream.fixture() }, cleanup: () => {} });
const run = (area?: string) => ({ tool: "run_tests", args: area ? { area } : {} });
const fix = (name: string) => ({ tool: "apply_fix", args: { fix: name } });
/** The line of a raw report that starts with `prefix` (after its indent), as the answer. */
/** A failing test as the report shows it: its × line or its FAIL heading. */
const failing = (test: string) => [`× ${test}`, `FAIL  ${test}`];
const lineOf = (prefix: string) => (raw: string) => [
  raw
    .split("\n")
    .find((l) => l.trim().startsWith(prefix))!
    .trim(),
];

export const ciDebugging: Session = {
  name: "ci-debugging",
  description: "fixture: a 244-test report re-run after each fix; timings, temp dir and clock change every run",
  setup: world,
  turns: [
    {
      question: "Which tests fail?",
      calls: [run()],
      answer: [failing("src/ledger/rounding.test.ts > rounds half-even"), failing("src/api/client.test.ts > retries on 503")],
      lookup: { mode: "grep", pattern: "×" },
    },
    {
      question: "What error does the failing ledger test report, and at which line?",
      calls: [run("ledger")],
      answer: ["AssertionError: expected 0.5 to be 1 // Object.is equality", "src/ledger/rounding.test.ts:42:18"],
      lookup: { mode: "grep", pattern: "Error|❯" },
    },
    {
      question: "After fixing half-even rounding, which tests fail?",
      calls: [fix("half-even rounding"), run()],
      answer: [
        failing("src/ledger/rounding.test.ts > keeps negative zero"),
        failing("src/api/client.test.ts > retries on 503"),
        failing("src/exports/streams.test.ts > streams large exports"),
      ],
      lookup: { mode: "grep", pattern: "×" },
    },
    {
      question: "Re-run: does the export test still time out?",
      calls: [run()],
      answer: ["✓ src/exports/streams.test.ts > streams large exports"],
      lookup: { mode: "grep", pattern: "streams large exports" },
    },
    {
      question: "After fixing negative zero, does the ledger area pass?",
      calls: [fix("negative zero"), run("ledger")],
      answer: ["Tests  82 passed (82)"],
      lookup: { mode: "grep", pattern: "Tests " },
    },
    {
      question: "After fixing the 503 retry, does the whole suite pass?",
      calls: [fix("retry on 503"), run()],
      answer: ["Tests  244 passed (244)"],
      lookup: { mode: "grep", pattern: "Tests " },
    },
    {
      question: "How long did the last full run take?",
      calls: [run()],
      answer: lineOf("Duration"),
      lookup: { mode: "grep", pattern: "Duration" },
    },
    {
      question: "How many api tests ran, and did they pass?",
      calls: [run("api")],
      answer: ["Tests  81 passed (81)"],
      lookup: { mode: "grep", pattern: "Tests " },
    },
    {
      question: "One more full run before merging: any failure?",
      calls: [run()],
      answer: ["Tests  244 passed (244)"],
      lookup: { mode: "grep", pattern: "Tests |×" },
    },
    { question: "When did that run start?", calls: [run()], answer: lineOf("Start at"), lookup: { mode: "grep", pattern: "Start at" } },
  ],
};

const log = (lines: number, seed = "nightly") => ({ tool: "big_log", args: { lines, seed } });
const failure = (seed: string, step: number) => `[${seed}] ERROR step ${step}: test suite ${step} failed with exit code 2`;

export const buildLogs: Session = {
  name: "build-logs",
  description: "fixture: a 165 KB build log read, re-read and read again as it grows",
  setup: world,
  turns: [
    {
      question: "Which build steps failed? Name the first.",
      calls: [log(3000)],
      answer: [failure("nightly", 13)],
      lookup: { mode: "grep", pattern: "ERROR" },
    },
    {
      question: "How long did step 1500 take to compile?",
      calls: [log(3000)],
      answer: ["[nightly] step 1500: compiled src/module1500.ts in 0 ms"],
      lookup: { mode: "grep", pattern: "step 1500:" },
    },
    {
      question: "The log grew: which new failures are in the last 100 steps?",
      calls: [log(3100)],
      answer: [failure("nightly", 3020)],
      lookup: { mode: "grep", pattern: "ERROR step 30[0-9][0-9]:" },
    },
    {
      question: "Does the retry run fail at the same first step?",
      calls: [log(3100, "retry")],
      answer: [failure("retry", 13)],
      lookup: { mode: "grep", pattern: "ERROR" },
    },
    {
      question: "How long did step 3050 of the nightly run take?",
      calls: [log(3100)],
      answer: ["[nightly] step 3050: compiled src/module3050.ts in 0 ms"],
      lookup: { mode: "grep", pattern: "step 3050:" },
    },
    {
      question: "The log grew again: which step failed last?",
      calls: [log(3200)],
      answer: [failure("nightly", 3117)],
      lookup: { mode: "grep", pattern: "ERROR step 31[0-9][0-9]:" },
    },
  ],
};
