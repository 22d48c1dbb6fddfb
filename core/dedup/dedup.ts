/**
 * Dedup of repeated results within a session (toolrecall-light's behaviour, per the spec):
 * decided by content, with a streak guard per (tool, canonical arguments) and compaction
 * generations.
 *
 * Decisions documented here because the spec leaves them open:
 * - A changed result for the same (tool, arguments) resets that key's streak to zero.
 * - A result the session received in an earlier generation (before a compaction) is delivered
 *   in full once more, which counts as receiving it in the current generation.
 * - When the streak guard lets a repeat through, the streak restarts from zero.
 */
import { fmtInt } from "../rescue/format";

/** JSON with object keys sorted at every depth and array order kept. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0)) ?? "null";
}

function sortKeys(value: unknown, depth: number): unknown {
  if (depth > 200 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value as object).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k], depth + 1);
  return out;
}

/** The streak key of a call. */
export function streakKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args ?? {})}`;
}

export type DedupDecision =
  { action: "stub"; nextCount: number } | { action: "deliver"; reason: "first" | "new_generation" | "streak_guard"; nextCount: number };

/**
 * Decides what a session gets for a result it may already hold.
 * @param heldGeneration generation in which the session last received this content, or null
 * @param streak the key's current streak (which content it stubbed, how many times in a row)
 */
export function decideDedup(input: {
  contentId: string;
  heldGeneration: number | null;
  generation: number;
  streak: { blobId: string; count: number } | null;
  maxStubStreak: number;
}): DedupDecision {
  const { contentId, heldGeneration, generation, streak, maxStubStreak } = input;
  const count = streak && streak.blobId === contentId ? streak.count : 0;
  if (heldGeneration === null) return { action: "deliver", reason: "first", nextCount: 0 };
  if (heldGeneration < generation) return { action: "deliver", reason: "new_generation", nextCount: 0 };
  if (count >= maxStubStreak) return { action: "deliver", reason: "streak_guard", nextCount: 0 };
  return { action: "stub", nextCount: count + 1 };
}

/**
 * The one-line stub the model gets instead of a result it already has. A result that was rescued
 * (`rescued`, with the cap of a whole read) was only ever given as a preview: the stub says so and
 * points to rescuer_fetch, and to recall_result only when that would answer with all of it.
 */
export function renderStub(input: { tool: string; id: string; chars: number; rescued?: { fullMaxChars: number } }): string {
  const head = `[spillway: ${input.tool} returned the same ${fmtInt(input.chars)} chars as an earlier call`;
  if (!input.rescued) return `${head}, already in your context. To see it again: recall_result(result_id="${input.id}").]`;
  const whole = input.chars <= input.rescued.fullMaxChars ? `, or all of it with recall_result(result_id="${input.id}")` : "";
  return `${head}, stored as ${input.id}; you were given a preview of it. Read it with rescuer_fetch(id="${input.id}", mode=…)${whole}.]`;
}
