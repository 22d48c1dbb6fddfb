/**
 * The line diff of two whole texts, without splitting the lines they share at either end.
 * A re-run result mostly repeats its predecessor: on a 194 k JSON with one changed digit,
 * splitting and hashing its 12,000 lines on each side was nearly all of the check. The common
 * head and tail are found by comparing characters, and only the lines between them are split and
 * diffed. The answer is exactly `diffLines` on the whole texts' lines: the lines left out are
 * equal on both sides, so that diff matches them one to one too (its own prefix and suffix pass).
 */
import { diffLines, type LineDiff } from "./lineDiff";

/** Two texts' lines as the diff needs them: counts, and the lines between their common head and tail. */
export interface TrimmedLines {
  /** Lines as `linesOf` counts them: a trailing newline adds no empty line. */
  oldCount: number;
  newCount: number;
  /** Lines before the middle: equal on both sides, with the same numbers. */
  head: number;
  /** Old lines [head, oldCount - tail) and new lines [head, newCount - tail); the `tail` lines after are equal. */
  oldMiddle: string[];
  newMiddle: string[];
}

/** Chars compared at once while the texts agree (a substring compare is a memory compare). */
const BLOCK = 1024;

function commonPrefix(a: string, b: string, max: number): number {
  let i = 0;
  while (i + BLOCK <= max && a.substring(i, i + BLOCK) === b.substring(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n + BLOCK <= max && a.substring(a.length - n - BLOCK, a.length - n) === b.substring(b.length - n - BLOCK, b.length - n))
    n += BLOCK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

function newlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf("\n", from); i !== -1 && i < to; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** The lines of `text` from `start` up to the newline at `end` (exclusive), or to its end when `end` is -1. */
function middle(text: string, start: number, end: number, head: number): string[] {
  if (end !== -1) return text.slice(start, end).split("\n");
  const lines = text.slice(start).split("\n");
  // The whole text's last line, when empty after a final newline, is not a line (as in linesOf).
  if (head + lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Lines of the text after the newline at `end` (none when `end` is -1): the common tail. */
function tailLines(text: string, end: number): number {
  if (end === -1 || end + 1 === text.length) return 0;
  return newlines(text, end + 1, text.length) + (text.endsWith("\n") ? 0 : 1);
}

/** Splits only what lies between the texts' common head and tail lines. */
export function trimCommonLines(oldText: string, newText: string): TrimmedLines {
  const shorter = Math.min(oldText.length, newText.length);
  const pre = commonPrefix(oldText, newText, shorter);
  const suf = commonSuffix(oldText, newText, shorter - pre);
  // The head ends after the last newline both share; the tail starts after the first newline inside the shared end.
  const headEnd = pre > 0 ? oldText.lastIndexOf("\n", pre - 1) + 1 : 0;
  const head = newlines(oldText, 0, headEnd);
  const oldEnd = oldText.indexOf("\n", oldText.length - suf);
  const newEnd = oldEnd === -1 ? -1 : oldEnd + newText.length - oldText.length;
  const tail = tailLines(oldText, oldEnd);
  const oldMiddle = middle(oldText, headEnd, oldEnd, head);
  const newMiddle = middle(newText, headEnd, newEnd, head);
  return { oldCount: head + oldMiddle.length + tail, newCount: head + newMiddle.length + tail, head, oldMiddle, newMiddle };
}

/** `diffLines` over the whole texts' lines, computed on the middle only; null when more than `maxChanged` lines change. */
export function diffTrimmed(t: TrimmedLines, maxChanged = Infinity): LineDiff | null {
  const d = diffLines(t.oldMiddle, t.newMiddle, maxChanged);
  if (!d || t.head === 0) return d;
  const h = t.head;
  return {
    hunks: d.hunks.map((x) => ({ oldStart: x.oldStart + h, oldEnd: x.oldEnd + h, newStart: x.newStart + h, newEnd: x.newEnd + h })),
    changed: d.changed,
    volatile: d.volatile.map(([i, j]) => [i + h, j + h]),
  };
}
