/**
 * Line conventions shared by every part of the engine (handle, stat, grep, range, outline):
 * lines are split on "\n" (a preceding "\r" stays part of the line), numbered from 0, and a
 * trailing newline does not start an extra empty line. Empty text has 0 lines.
 */

/** Number of lines in `text` under the shared convention. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  let i = -1;
  while ((i = text.indexOf("\n", i + 1)) !== -1) n++;
  return text.endsWith("\n") ? n : n + 1;
}

/** Character offset where each line starts; `result.length === countLines(text)`. */
export function lineStarts(text: string): number[] {
  const starts: number[] = [];
  if (text.length === 0) return starts;
  starts.push(0);
  let i = -1;
  while ((i = text.indexOf("\n", i + 1)) !== -1) {
    if (i + 1 < text.length) starts.push(i + 1);
  }
  return starts;
}

/** The 0-based line that contains character offset `offset`, given `lineStarts(text)`. */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
