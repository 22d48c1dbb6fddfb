/**
 * Head and tail of any text, optionally with promoted anchor lines (logs, plain text).
 * Only windows of about `cap` chars at each end are split into lines, so a 10 MB log is
 * never turned into a line array; the line count comes from an indexOf loop.
 * This builder is the fallback for every other one, so it must accept any string.
 */
import { findAnchors, type Anchor, type AnchorScan } from "../anchors";
import { fitPlan, type Block, type Fitted } from "../budget";
import { clipEnd, fmtInt, oneLine } from "../format";
import { countLines } from "../../text/lines";

/** Lines of `s`, without the empty piece a trailing newline would leave. */
export function splitLines(s: string): string[] {
  const lines = s.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export interface Windows {
  head: string[];
  tail: string[];
  totalLines: number;
}

/** The first and last lines of `text` that could fit in `cap` chars, never overlapping. */
export function edgeWindows(text: string, cap: number): Windows {
  const totalLines = countLines(text);
  const w = cap + 1;
  if (text.length <= 2 * w) {
    let mid = text.indexOf("\n", text.length >> 1);
    if (mid === -1 || mid === text.length - 1) mid = text.lastIndexOf("\n", (text.length >> 1) - 1);
    if (mid === -1) {
      // One line: show its start and its end, each cut mid-line.
      const half = text.length >> 1;
      return { head: [text.slice(0, half)], tail: [text.slice(half)], totalLines: Math.max(totalLines, 1) };
    }
    return { head: splitLines(text.slice(0, mid)), tail: splitLines(text.slice(mid + 1)), totalLines };
  }
  const head = splitLines(text.slice(0, w));
  if (head.length > 1 && !text.slice(0, w).endsWith("\n")) head.pop();
  const tailText = text.slice(text.length - w);
  const tail = splitLines(tailText);
  if (tail.length > 1 && text.charCodeAt(text.length - w - 1) !== 10) tail.shift();
  return { head, tail, totalLines };
}

/** A promoted line for display, centred on its signal when long. */
function anchorBody(text: string, hit: number): string {
  let body = text;
  if (body.length > 240) {
    const from = Math.max(0, Math.min(hit - 80, body.length - 239));
    body = (from > 0 ? "…" : "") + body.slice(from, from + 239);
  }
  return clipEnd(oneLine(body).trimEnd(), 260);
}

/** The display form of one promoted line (the first of those folded into it). */
export function anchorUnit(a: Anchor): string {
  const count = a.count > 1 ? ` (×${fmtInt(a.count)} similar)` : "";
  return `line ${a.line}${count}: ${anchorBody(a.text, a.hit)}`;
}

/** The last line folded into a promoted one: where a repeated failure stops, which the count alone does not say. */
function lastUnit(a: Anchor & { last: NonNullable<Anchor["last"]> }): string {
  return `line ${a.last.line} (the last of the ×${fmtInt(a.count)} at line ${a.line}): ${anchorBody(a.last.text, a.last.hit)}`;
}

/** Lines promoted from an omitted middle, and what they are called in the notes. */
export interface Promoted {
  find(text: string): AnchorScan;
  /** "error/failure lines", "declarations". */
  noun: string;
}

const FAILURES: Promoted = { find: (t) => findAnchors(t), noun: "error/failure lines" };

export interface LinesOptions {
  /** Promote error/failure lines (true) or other lines from the omitted middle. */
  anchors: boolean | Promoted;
  /** At most this many head / tail lines (the budget may show fewer). */
  headMax?: number;
  tailMax?: number;
  /** Display form of a shown line (e.g. a pruned JSON record). */
  unit?: (line: string) => string;
  /** What a line is called in notes: "lines", "rows", "records". */
  noun?: string;
}

/** The note standing between the head and the rest. */
function gapNote(totalLines: number, head: number, tail: number, anchors: number, noun: string, promoted: string): string {
  const from = head;
  const to = totalLines - tail - 1;
  const n = to - from + 1;
  const what = n > 0 ? `… ${fmtInt(n)} ${noun} omitted (lines ${from}–${to})` : `… (middle of line ${Math.max(0, to + 1)} omitted)`;
  return anchors > 0 ? `${what}; ${promoted} among them (0-based line numbers):` : `${what} …`;
}

/** Head/tail excerpt of lines; with `anchors`, promoted lines from the omitted middle. */
export function linesExcerpt(text: string, cap: number, opt: LinesOptions): string {
  const win = edgeWindows(text, cap);
  const headMax = opt.headMax ?? Infinity;
  const tailMax = opt.tailMax ?? Infinity;
  const unit = opt.unit ?? ((l: string) => l);
  const head = win.head.slice(0, headMax).map(unit);
  const tail = win.tail.slice(Math.max(0, win.tail.length - tailMax)).map(unit);
  const promoted = opt.anchors === true ? FAILURES : opt.anchors || null;
  const scan = promoted ? promoted.find(text) : { anchors: [], total: 0 };
  const promotedNoun = promoted?.noun ?? "";
  const noun = opt.noun ?? "lines";
  const plan = (list: Anchor[]): Block[] => {
    const blocks: Block[] = [{ type: "section", role: "head", units: head }];
    blocks.push({ type: "note", render: (s) => gapNote(win.totalLines, s.head, s.tail, s.anchors, noun, promotedNoun) });
    if (list.length > 0) {
      // The last repeats come after every first line: they get what room the first lines leave.
      const lasts = list.filter((a): a is Anchor & { last: NonNullable<Anchor["last"]> } => a.last !== undefined).map(lastUnit);
      blocks.push({ type: "section", role: "anchors", units: [...list.map(anchorUnit), ...lasts] });
      blocks.push({
        type: "note",
        render: (s) => {
          const shownLines = list.slice(0, Math.min(s.anchors, list.length)).reduce((n, a) => n + a.count, 0);
          const more = scan.total - shownLines;
          return s.anchors === 0 ? "" : more > 0 ? `… (${fmtInt(more)} more ${promotedNoun}) …` : "…";
        },
      });
    }
    blocks.push({ type: "section", role: "tail", units: tail });
    return blocks;
  };
  const hidden = (f: Fitted, line: number): boolean => line >= f.shown.head && line < win.totalLines - f.shown.tail;
  // A folded anchor whose first line is in view still tells where its repeats end.
  const outside = (f: Fitted, a: Anchor): boolean => hidden(f, a.line) || (a.last !== undefined && hidden(f, a.last.line));
  // Anchors already visible in the head or tail are dropped, then the plan is refitted.
  const first = fitPlan(plan(scan.anchors), cap, text.length);
  // So are last repeats already visible.
  const kept = scan.anchors
    .filter((a) => outside(first, a))
    .map((a) => (a.last && !hidden(first, a.last.line) ? { ...a, last: undefined } : a));
  if (kept.length === scan.anchors.length && kept.every((a, i) => a.last === scan.anchors[i]!.last)) return first.text;
  return fitPlan(plan(kept), cap, text.length).text;
}

/** Head/tail excerpt of any text; the total fallback of every other builder. */
export function plainExcerpt(text: string, cap: number, anchors: boolean): string {
  return linesExcerpt(text, cap, { anchors });
}
