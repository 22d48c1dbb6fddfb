/**
 * Near-duplicate stubs: a result that differs from the same call's last one in a small share
 * of its lines reaches the model as a stub naming that earlier result plus only the changed
 * lines. The new result is stored whole under its own id, so recall_result still returns its
 * exact bytes.
 *
 * Decisions documented here because the spec leaves them open:
 * - The earlier result is the last one of the same (tool, canonical arguments) key, and only
 *   while the session holds it in the current generation: after a compaction it is delivered
 *   in full once more, as an exact repeat would be.
 * - Near-duplicate and exact stubs share one streak per key: after `maxStubStreak` stubs of
 *   either kind in a row, the next result is delivered in full (or as a handle).
 * - A stub is never given when it would not be small: longer than the handle this result would
 *   get, or than half of the result itself.
 */
import { safeEnd } from "../rescue/format";
import { diffTrimmed, trimCommonLines } from "./textDiff";

/** The earlier result a changed one is compared with, and the key's streak if it is stubbed. */
export interface NearBase {
  baseId: string;
  nextCount: number;
}

/** Whether a result that is new to the session may become a near-duplicate stub, and against what. */
export function nearDuplicateBase(input: {
  enabled: boolean;
  contentId: string;
  /** The key's streak before this result: its last content and how many stubs in a row. */
  streak: { blobId: string; count: number } | null;
  generation: number;
  maxStubStreak: number;
  heldGeneration(blobId: string): number | null;
}): NearBase | null {
  const { streak } = input;
  if (!input.enabled || !streak || streak.blobId === input.contentId) return null;
  if (streak.count >= input.maxStubStreak) return null;
  if (input.heldGeneration(streak.blobId) !== input.generation) return null;
  return { baseId: streak.blobId, nextCount: streak.count + 1 };
}

/** Longest line shown whole; longer changed lines are cut and say by how much. */
const LINE_MAX = 300;

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

function lineOf(sign: "-" | "+" | "~", n: number, text: string): string {
  const cut = safeEnd(text, LINE_MAX);
  const shown = text.length <= LINE_MAX ? text : `${text.slice(0, cut)}… [+${fmt(text.length - cut)} chars]`;
  return `${sign}${n}: ${shown}`;
}

export interface NearStubInput {
  tool: string;
  /** The earlier result and the new one, as the model may see them (masked). */
  baseId: string;
  baseText: string;
  id: string;
  text: string;
  /** Most changed lines allowed, as a share of both results' lines. */
  maxChangedShare: number;
  /** Longest stub allowed: the size a handle for this result would have. */
  maxChars: number;
}

/** Volatile-only changes are listed when this few, or else only in a report's header and summary. */
const FEW_VOLATILE = 8;
const HEAD_LINES = 2;
const TAIL_LINES = 4;

const VOLATILE_WORDS = "timings, timestamps, temp paths or ids";

function header(input: NearStubInput, counts: { removed: number; added: number; retimed: number; hidden: number }): string {
  const { tool, baseId, id } = input;
  const { removed, added, retimed, hidden } = counts;
  const tally = [removed && `${fmt(removed)} removed`, added && `${fmt(added)} added`, retimed && `${fmt(retimed)} retimed`]
    .filter(Boolean)
    .join(", ");
  const legend = `0-based; "-" earlier, "+" new${retimed ? `, "~" only its ${VOLATILE_WORDS} changed` : ""}`;
  let what = `the same as this call's earlier result ${baseId}`;
  if (tally) what += ` except the lines below (${legend}: ${tally})`;
  if (hidden) what += `${tally ? "; " : " except that "}${fmt(hidden)} ${tally ? "more " : ""}lines differ only in ${VOLATILE_WORDS}`;
  if (!tally && !hidden) what += " once masked";
  return `[spillway: ${tool} returned ${fmt(input.text.length)} chars, stored as ${id}: ${what}. Exact text: recall_result(result_id="${id}").]`;
}

/** The near-duplicate stub for `text` against `baseText`, or null when it would not be small. */
export function renderNearStub(input: NearStubInput): string | null {
  const maxChars = Math.min(input.maxChars, Math.floor(input.text.length / 2));
  // Only the lines between the texts' common head and tail are split: the changes lie there.
  const lines = trimCommonLines(input.baseText, input.text);
  if (lines.oldCount < 2 || lines.newCount < 2) return null;
  const maxChanged = Math.floor(input.maxChangedShare * (lines.oldCount + lines.newCount));
  const diff = diffTrimmed(lines, maxChanged);
  if (!diff) return null;
  const oldLine = (i: number) => lines.oldMiddle[i - lines.head]!;
  const newLine = (j: number) => lines.newMiddle[j - lines.head]!;
  // Lines in new-result order: a hunk's removed lines sit where its added ones start.
  const entries: { at: number; text: string }[] = [];
  let size = 0;
  let removed = 0;
  let added = 0;
  for (const h of diff.hunks) {
    for (let i = h.oldStart; i < h.oldEnd; i++, removed++) entries.push({ at: h.newStart, text: lineOf("-", i, oldLine(i)) });
    for (let j = h.newStart; j < h.newEnd; j++, added++) entries.push({ at: j, text: lineOf("+", j, newLine(j)) });
  }
  for (const e of entries) size += e.text.length + 1;
  if (size > maxChars) return null;
  // Timings and ids that changed on a report's first or last lines are often what is asked
  // (its duration, its start time): those are listed, while the room lasts.
  const few = diff.volatile.length <= FEW_VOLATILE;
  const retimed: { at: number; text: string }[] = [];
  for (const [, j] of diff.volatile) {
    if (!few && j >= HEAD_LINES && j < lines.newCount - TAIL_LINES) continue;
    const line = lineOf("~", j, newLine(j));
    if (size + line.length + 1 > maxChars - 200) break;
    retimed.push({ at: j, text: line });
    size += line.length + 1;
  }
  const body = [...entries, ...retimed].sort((x, y) => x.at - y.at).map((e) => e.text);
  const counts = { removed, added, retimed: retimed.length, hidden: diff.volatile.length - retimed.length };
  const stub = [header(input, counts), ...body].join("\n");
  return stub.length <= maxChars ? stub : null;
}
