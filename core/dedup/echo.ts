/**
 * Echo stubs: a result that is, as JSON, exactly an argument of the same call (server-memory's
 * create_entities returns the entities it was sent) holds nothing the model does not already
 * have: the call it wrote is in its context next to the result. The result is stored whole, so
 * recall_result still returns its exact bytes.
 *
 * Decisions documented here because the spec leaves them open:
 * - Equal means equal JSON values (object key order and whitespace aside), of the whole
 *   arguments object or of one top-level argument that is an object or an array; a scalar
 *   argument echoed back is too small to be worth a stub.
 * - Only results dedup would consider (not errors, dedup.minChars to dedup.maxChars), so the
 *   stub is always much shorter than what it replaces.
 */
import { fmtInt } from "../rescue/format";
import { canonicalJson } from "./dedup";

/** How much longer than its compact JSON a pretty-printed value may be (indentation, spaces). */
const MAX_INFLATION = 4;

/**
 * The argument a result echoes: its name, "" for the whole arguments object, or null when the
 * result is not, as JSON, one of them.
 */
export function echoedArgument(text: string, args: unknown): string | null {
  if (!args || typeof args !== "object" || Array.isArray(args)) return null;
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return null;
  // Only sizes an echo could have are parsed: no shorter than the value's compact JSON, and no
  // longer than indentation could make it (a large JSON result is not parsed for nothing).
  const candidates = [["", args] as const, ...Object.entries(args)]
    .filter(([, v]) => v !== null && typeof v === "object")
    .map(([name, v]) => [name, canonicalJson(v)] as const)
    .filter(([, json]) => json[0] === first && json.length <= text.length && text.length <= json.length * MAX_INFLATION + 256);
  if (candidates.length === 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const got = canonicalJson(parsed);
  return candidates.find(([, json]) => json === got)?.[0] ?? null;
}

/** The one-line stub the model gets instead of a result that repeats an argument it sent. */
export function renderEchoStub(input: { tool: string; argument: string; id: string; chars: number }): string {
  const what = input.argument ? `the \`${input.argument}\` argument` : "the arguments";
  return (
    `[spillway: ${input.tool} returned ${fmtInt(input.chars)} chars of JSON equal to ${what} of this call, already in your context. ` +
    `Exact text: recall_result(result_id="${input.id}").]`
  );
}
