/**
 * Log outline: signal clusters (error, warning, failed, exception, traceback, fatal, exit
 * code N) with counts, first and last line, and the most frequent message shapes. Matching
 * has no word boundary on the left on purpose: `TypeError`, `AssertionError`, `ERRORS` and
 * `DeprecationWarning` are the signals people look for.
 */
import { clip, fmtCount } from "./answer";

interface Entry {
  line: number;
  text: string;
}

interface Cluster {
  name: string;
  count: number;
  first: Entry;
  last: Entry;
  /** Message shapes of the first SHAPE_SAMPLE occurrences, with counts. */
  shapes: Map<string, number>;
}

interface Tally {
  name: string;
  count: number;
  first: Entry;
  lastLine: number;
  lastAt: number;
  shapes: Map<string, number>;
}

const SIGNALS =
  /(error(?:s|ed)?(?![a-z]))|(warn(?:ings?|ed)?(?![a-z]))|(fail(?:ed|ures?|s|ing)?(?![a-z]))|(exceptions?(?![a-z]))|(traceback)|(fatal|panic(?:ked)?)|exit(?:ed)?(?: with)?[ _-]?(?:code|status)[\s:=]*(-?\d+)/gi;
const NAMES = ["error", "warning", "failed", "exception", "traceback", "fatal"];
/** Phrases that contain a signal word but report its absence. */
const NEGATED = /\b(?:0|no|zero|without)\s+(?:errors?|warnings?|failures?)\b/gi;
/** The same absence, seen from just before the signal word (the cheap first check). */
const NEGATED_BEFORE = /(?:^|[^a-z0-9])(?:0|no|zero|without)\s+$/i;
const MAX_SHAPES = 500;
/** Occurrences per signal whose message shape is computed; a 100 MB log can have 250,000. */
export const SHAPE_SAMPLE = 2_000;

/** Counts each signal once per line, in one pass of one regex over the whole text. */
export function summarizeLog(text: string): { lines: number; clusters: Cluster[] } {
  const tallies = new Map<string, Tally>();
  let line = 0;
  let counted = 0; // offset up to which newlines have been counted
  for (const m of text.matchAll(SIGNALS)) {
    for (let k = text.indexOf("\n", counted); k !== -1 && k < m.index; k = text.indexOf("\n", k + 1)) line++;
    counted = m.index;
    let g = 0;
    while (g < 6 && m[g + 1] === undefined) g++;
    const name = g < 6 ? NAMES[g]! : `exit code ${m[7]}`;
    const t = tallies.get(name);
    if (t && t.lastLine === line) continue;
    if (
      g <= 2 &&
      NEGATED_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index)) &&
      isNegatedOnly(lineAt(text, m.index), ["error", "warn", "fail"][g]!)
    )
      continue;
    const tally = t ?? { name, count: 0, first: entryAt(text, m.index, line), lastLine: -1, lastAt: 0, shapes: new Map<string, number>() };
    tally.count++;
    tally.lastLine = line;
    tally.lastAt = m.index;
    if (tally.count <= SHAPE_SAMPLE) {
      const shape = messageShape(lineAt(text, m.index));
      if (tally.shapes.has(shape) || tally.shapes.size < MAX_SHAPES) tally.shapes.set(shape, (tally.shapes.get(shape) ?? 0) + 1);
    }
    tallies.set(name, tally);
  }
  let lines = line;
  for (let k = text.indexOf("\n", counted); k !== -1; k = text.indexOf("\n", k + 1)) lines++;
  if (text.length > 0 && !text.endsWith("\n")) lines++;
  const clusters = [...tallies.values()].map(({ name, count, first, lastLine, lastAt, shapes }) => ({
    name,
    count,
    first,
    last: entryAt(text, lastAt, lastLine),
    shapes,
  }));
  return { lines, clusters };
}

/** The line containing offset `at` (at most 2,000 chars of it), without its newline. */
function lineAt(text: string, at: number): string {
  const start = at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
  const nl = text.indexOf("\n", at);
  return text.slice(start, Math.min(nl === -1 ? text.length : nl, start + 2_000)).replace(/\r$/, "");
}

function entryAt(text: string, at: number, line: number): Entry {
  return { line, text: clip(lineAt(text, at).trim(), 200) };
}

/** True when every mention of `word` on the line is a "0 errors"-style absence. */
function isNegatedOnly(line: string, word: string): boolean {
  const rest = line.replace(NEGATED, "");
  return rest.length !== line.length && !rest.toLowerCase().includes(word.toLowerCase());
}

/** A message with its variable parts blanked, so repeats of one failure group together. */
function messageShape(line: string): string {
  return clip(
    line
      .replace(/^\S*\d{2}[:T-]\d{2}\S*\s+/, "") // a leading timestamp
      .replace(/"[^"]*"|'[^']*'/g, "…")
      .replace(/\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b/gi, "#")
      .replace(/\d+(\.\d+)?/g, "#")
      .trim(),
    100,
  );
}

export function logOutline(text: string): string {
  const { lines, clusters } = summarizeLog(text);
  const out = [
    `Log outline: ${fmtCount(lines)} lines; ${clusters.length ? `${clusters.length} signal clusters` : "no error, warning or failure signals"}`,
  ];
  for (const c of clusters.toSorted((a, b) => b.count - a.count)) {
    out.push(`${c.name} ×${fmtCount(c.count)}: first L${c.first.line}: ${c.first.text}`);
    if (c.count > 1) out.push(`  last L${c.last.line}: ${c.last.text}`);
    const shapes = [...c.shapes].toSorted((a, b) => b[1] - a[1]).slice(0, 3);
    const sampled = c.count > SHAPE_SAMPLE ? ` (among the first ${fmtCount(SHAPE_SAMPLE)})` : "";
    if (c.count > 2 && shapes.length > 1)
      out.push(`  most common${sampled}: ${shapes.map(([s, n]) => `${fmtCount(n)}× ${s}`).join(" | ")}`);
  }
  const head = headLines(text, 3);
  if (head) out.push(`head: ${head}`);
  return out.join("\n");
}

function headLines(text: string, n: number): string {
  const lines: string[] = [];
  let pos = 0;
  while (lines.length < n && pos < text.length) {
    const nl = text.indexOf("\n", pos);
    lines.push(clip(text.slice(pos, nl === -1 ? text.length : nl).trim(), 160));
    if (nl === -1) break;
    pos = nl + 1;
  }
  return lines.join(" ⏎ ");
}
