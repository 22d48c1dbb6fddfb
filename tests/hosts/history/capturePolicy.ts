/**
 * The policy the history capture runs in every host without Spillway: a big result, the same call
 * again (an exact repeat), a slightly different one (a near-duplicate), and a very large one that
 * the host cuts or saves to a file, then a final answer.
 */
import type { Action, ToolRef, TurnView } from "../models/policy";

/** The calls, in order: `lines` of big_log with `seed` (the fixture upstream's tool). */
export const CAPTURE_CALLS = [
  { lines: 400, seed: "history" },
  { lines: 400, seed: "history" },
  { lines: 401, seed: "history" },
  { lines: 3_000, seed: "huge" },
] as const;

/** The next action for a request: the first call not yet answered, else the final text. */
export function captureAction(view: TurnView): Action {
  const big: ToolRef | undefined = view.tools.find((t) => t.base === "big_log");
  if (!big && view.discoverable) return { type: "discover", step: "discover", query: "big_log" };
  if (!big) return { type: "stuck", step: "big", text: `capture: no big_log among ${view.tools.map((t) => t.call).join(", ")}` };
  const next = CAPTURE_CALLS[view.results.length];
  if (!next) return { type: "final", step: "final", text: "Done: four logs read." };
  return { type: "call", step: view.results.length === 0 ? "big" : "repeat", tool: big, args: { ...next } };
}
