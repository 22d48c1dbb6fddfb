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
 * - A stub is never given when it would not be small: over the excerpt budget a handle would
 *   get, or over half of the result itself.
 */
import { diffLines, type LineDiff } from "./lineDiff";

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

function lineOf(sign: "-" | "+", n: number, text: string): string {
  const shown = text.length <= LINE_MAX ? text : `${text.slice(0, LINE_MAX)}… [+${fmt(text.length - LINE_MAX)} chars]`;
  return `${sign}${n}: ${shown}`;
}

/** Lines of a text as the diff sees them: a trailing newline adds no empty line. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
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
  /** Longest stub allowed (the excerpt budget a handle for this result would get). */
  maxChars: number;
}

function header(input: NearStubInput, diff: LineDiff, removed: number, added: number): string {
  const { tool, baseId, id } = input;
  const volatile = diff.volatile > 0 ? `; ${fmt(diff.volatile)} more lines differ only in timings, timestamps, temp paths or ids` : "";
  const what =
    diff.changed === 0
      ? `the same as this call's earlier result ${baseId}${volatile ? ` except that ${fmt(diff.volatile)} lines differ only in timings, timestamps, temp paths or ids` : " once masked"}`
      : `the same as this call's earlier result ${baseId} except the lines below (${fmt(removed)} removed, ${fmt(added)} added; 0-based line numbers, "-" in ${baseId}, "+" in ${id})${volatile}`;
  return `[spillway: ${tool} returned ${fmt(input.text.length)} chars, stored as ${id}: ${what}. Exact text: recall_result(result_id="${id}").]`;
}

/** The near-duplicate stub for `text` against `baseText`, or null when it would not be small. */
export function renderNearStub(input: NearStubInput): string | null {
  const maxChars = Math.min(input.maxChars, Math.floor(input.text.length / 2));
  const oldLines = linesOf(input.baseText);
  const newLines = linesOf(input.text);
  if (oldLines.length < 2 || newLines.length < 2) return null;
  const maxChanged = Math.floor(input.maxChangedShare * (oldLines.length + newLines.length));
  const diff = diffLines(oldLines, newLines, maxChanged);
  if (!diff) return null;
  const body: string[] = [];
  let size = 0;
  let removed = 0;
  let added = 0;
  const push = (line: string): boolean => {
    body.push(line);
    size += line.length + 1;
    return size <= maxChars;
  };
  for (const h of diff.hunks) {
    for (let i = h.oldStart; i < h.oldEnd; i++, removed++) if (!push(lineOf("-", i, oldLines[i]!))) return null;
    for (let j = h.newStart; j < h.newEnd; j++, added++) if (!push(lineOf("+", j, newLines[j]!))) return null;
  }
  const stub = [header(input, diff, removed, added), ...body].join("\n");
  return stub.length <= maxChars ? stub : null;
}
