/**
 * The policy the history capture runs in every host without Spillway: a big result, the same call
 * again (an exact repeat), the test suite run twice (the second report differs from the first in
 * its timings only: a near-duplicate), and a very large result that the host cuts or saves to a
 * file, then a final answer.
 */
import type { Action, ToolRef, TurnView } from "../models/policy";

/** The calls, in order, on the fixture upstream's tools. */
export const CAPTURE_CALLS = [
  { tool: "big_log", args: { lines: 400, seed: "history" } },
  { tool: "big_log", args: { lines: 400, seed: "history" } },
  { tool: "run_tests", args: { area: "ledger" } },
  { tool: "run_tests", args: { area: "ledger" } },
  { tool: "big_log", args: { lines: 3_000, seed: "huge" } },
] as const;

/** The next action for a request: the first call not yet answered, else the final text. */
export function captureAction(view: TurnView): Action {
  const find = (base: string): ToolRef | undefined => view.tools.find((t) => t.base === base);
  if (!(find("big_log") && find("run_tests")) && view.discoverable)
    return { type: "discover", step: "discover", query: "big_log run_tests" };
  const next = CAPTURE_CALLS[view.results.filter((r) => !/tool_search/.test(r.tool)).length];
  if (!next) return { type: "final", step: "final", text: "Done: logs and test runs read." };
  const tool = find(next.tool);
  if (!tool) return { type: "stuck", step: "big", text: `capture: no ${next.tool} among ${view.tools.map((t) => t.call).join(", ")}` };
  return { type: "call", step: view.results.length === 0 ? "big" : "repeat", tool, args: { ...next.args } };
}
