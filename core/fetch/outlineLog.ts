/**
 * Log outline: signal clusters (error, warning, failed, exception, traceback, fatal, exit
 * code N) with counts, first and last line, and the most frequent message shapes. Matching
 * has no word boundary on the left on purpose: `TypeError`, `AssertionError`, `ERRORS` and
 * `DeprecationWarning` are the signals people look for.
 */
import { clip, fmtCount } from "./answer";

interface Cluster {
  name: string;
  count: number;
  first: { line: number; text: string };
  last: { line: number; text: string };
  lastLine: number;
  shapes: Map<string, number>;
}

const SIGNALS =
  /(error(?:s|ed)?(?![a-z]))|(warn(?:ings?|ed)?(?![a-z]))|(fail(?:ed|ures?|s|ing)?(?![a-z]))|(exceptions?(?![a-z]))|(traceback)|(fatal|panic(?:ked)?)|exit(?:ed)?(?: with)?[ _-]?(?:code|status)[\s:=]*(-?\d+)/gi;
const NAMES = ["error", "warning", "failed", "exception", "traceback", "fatal"];
/** Phrases that contain a signal word but report its absence. */
const NEGATED = /\b(?:0|no|zero|without)\s+(?:errors?|warnings?|failures?)\b/gi;
const MAX_SHAPES = 500;

/** Counts each signal once per line. */
export function summarizeLog(text: string): { lines: number; clusters: Cluster[] } {
  const clusters = new Map<string, Cluster>();
  let line = 0;
  let counted = 0; // offset up to which newlines have been counted
  SIGNALS.lastIndex = 0;
  for (const m of text.matchAll(SIGNALS)) {
    for (let k = text.indexOf("\n", counted); k !== -1 && k < m.index; k = text.indexOf("\n", k + 1)) line++;
    counted = m.index;
    const g = m.slice(1, 7).findIndex((x) => x !== undefined);
    const name = g >= 0 ? NAMES[g]! : `exit code ${m[7]}`;
    const c = clusters.get(name);
    if (c && c.lastLine === line) continue;
    const start = text.lastIndexOf("\n", m.index - 1) + 1;
    const nl = text.indexOf("\n", m.index);
    const raw = text.slice(start, Math.min(nl === -1 ? text.length : nl, start + 2_000)).replace(/\r$/, "");
    if (g >= 0 && g <= 2 && isNegatedOnly(raw, ["error", "warn", "fail"][g]!)) continue;
    const entry = { line, text: clip(raw.trim(), 200) };
    const cl = c ?? { name, count: 0, first: entry, last: entry, lastLine: -1, shapes: new Map<string, number>() };
    cl.count++;
    cl.last = entry;
    cl.lastLine = line;
    const shape = messageShape(raw);
    if (cl.shapes.has(shape) || cl.shapes.size < MAX_SHAPES) cl.shapes.set(shape, (cl.shapes.get(shape) ?? 0) + 1);
    clusters.set(name, cl);
  }
  let lines = line;
  for (let k = text.indexOf("\n", counted); k !== -1; k = text.indexOf("\n", k + 1)) lines++;
  if (text.length > 0 && !text.endsWith("\n")) lines++;
  return { lines, clusters: [...clusters.values()] };
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
  const out = [`Log outline: ${fmtCount(lines)} lines; ${clusters.length ? `${clusters.length} signal clusters` : "no error, warning or failure signals"}`];
  for (const c of clusters.toSorted((a, b) => b.count - a.count)) {
    out.push(`${c.name} ×${fmtCount(c.count)}: first L${c.first.line}: ${c.first.text}`);
    if (c.count > 1) out.push(`  last L${c.last.line}: ${c.last.text}`);
    const shapes = [...c.shapes].toSorted((a, b) => b[1] - a[1]).slice(0, 3);
    if (c.count > 2 && shapes.length > 1) out.push(`  most common: ${shapes.map(([s, n]) => `${n}× ${s}`).join(" | ")}`);
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
