/**
 * Near-duplicates: a result that repeats one the session already has except for a small share of
 * its lines. The model then needs only the changed lines and a pointer to the whole.
 */

export interface NearDuplicate {
  /** Lines of the new result not in the earlier one (0-based line numbers of the new result). */
  changed: { line: number; text: string }[];
  /** Lines of the earlier result not in the new one. */
  removed: number;
  /** Lines of the new result. */
  lines: number;
}

/**
 * Compares line multisets (order-insensitive, linear time). Null unless both have at least
 * `minLines` lines and at most `maxShare` of them differ (and something does).
 */
export function nearDuplicate(earlier: string, next: string, maxShare: number, minLines: number): NearDuplicate | null {
  const a = earlier.split("\n");
  const b = next.split("\n");
  if (a.length < minLines || b.length < minLines) return null;
  const budget = Math.floor(Math.max(a.length, b.length) * maxShare);
  if (Math.abs(a.length - b.length) > budget) return null;
  const counts = new Map<string, number>();
  for (const l of a) counts.set(l, (counts.get(l) ?? 0) + 1);
  const changed: { line: number; text: string }[] = [];
  let matched = 0;
  for (let i = 0; i < b.length; i++) {
    const n = counts.get(b[i]!) ?? 0;
    if (n > 0) {
      counts.set(b[i]!, n - 1);
      matched++;
    } else {
      changed.push({ line: i, text: b[i]! });
      if (changed.length > budget) return null;
    }
  }
  const removed = a.length - matched;
  if (removed > budget || (changed.length === 0 && removed === 0)) return null;
  return { changed, removed, lines: b.length };
}

/** The stub the model gets for a near-duplicate: the earlier result's id, then the changed lines. */
export function renderNearStub(input: { tool: string; id: string; earlierId: string; chars: number; diff: NearDuplicate }): string {
  const { diff } = input;
  const head =
    `[spillway: ${input.tool} returned ${input.chars.toLocaleString("en-US")} chars that repeat an earlier result ` +
    `(result ${input.earlierId}, already in your context) except ${diff.changed.length} of ${diff.lines.toLocaleString("en-US")} lines` +
    (diff.removed ? ` (${diff.removed} earlier lines are gone)` : "") +
    `; the changed lines follow, 0-based. The whole result: recall_result(result_id="${input.id}").]`;
  return [head, ...diff.changed.map((c) => `L${c.line}: ${c.text}`)].join("\n");
}
