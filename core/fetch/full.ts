/** The full mode: the whole content when it is small enough and may be shown. */
import { fail, fmtCount, ok } from "./answer";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

export function fullMode(input: FetchInput): FetchAnswer {
  if (input.withholdFull) {
    return fail(
      `Full content of blob ${input.id} is withheld because it holds credentials; use outline, grep, search or range, which mask secrets.`,
    );
  }
  const { content, limits } = input;
  if (content.length > limits.fullMaxChars) {
    return fail(
      `Blob ${input.id} is ${fmtCount(content.length)} chars, over the ${fmtCount(limits.fullMaxChars)}-char limit for full, so use outline for its structure, search or grep to find things, range to read slices, or query for JSON.`,
    );
  }
  return ok(content, content.length);
}
