/** The grep and chain modes: matching lines (chain: with context), capped and continuable. */
import { countLines } from "../text/lines";
import { centreSnippet } from "../search/snippet";
import { clip, fail, fitItems, fmtCount, ok } from "./answer";
import type { FetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";
import { compilePattern } from "./grepPattern";
import { scanLines, type LineHit } from "./grepScan";
import { scanSlices } from "./grepSlices";
import { stringDoc } from "../text/textDoc";

/** Matching lines shown at most per answer. */
export const MAX_HITS = 200;
/** Matching lines counted at most, so a pattern matching every line of 100 MB stays cheap. */
export const COUNT_CAP = 10_000;
/** Lines longer than this are shown as a snippet centred on the match. */
export const LONG_LINE = 300;

/** `grep`: matching lines with 0-based line numbers, read a window at a time. */
export function grepMode(input: FetchInput, args: FetchArgs["grep"]): FetchAnswer {
  const pat = compilePattern(args.pattern, args.ignore_case);
  if (!pat.ok) return fail(pat.message);
  const doc = input.doc ?? stringDoc(input.content);
  const fromLine = args.from_line;
  const total = input.meta.chars === doc.length ? input.meta.lines : doc.lines;
  if (fromLine > 0 && fromLine >= total) {
    return fail(
      `The argument from_line of mode grep is ${fromLine}, past the last line (the blob has ${fmtCount(total)} lines, 0–${Math.max(0, total - 1)}).`,
    );
  }
  const shown = shownPattern(args.pattern, args.ignore_case);
  const where = fromLine > 0 ? ` from line ${fromLine}` : "";
  if (doc.length === 0) return ok(`No line matches ${shown} in ${input.id}${where} (0 lines searched).`, 0);
  const scan = scanSlices(doc, pat, {
    fromLine,
    maxHits: MAX_HITS,
    countCap: COUNT_CAP,
    fullChars: input.limits.maxChars,
    format: (text, h, base, baseLine) => hitLine(text, h, ":", base, baseLine),
  });
  if (scan.matchedLines === 0) {
    return ok(`No line matches ${shown} in ${input.id}${where} (${fmtCount(total - fromLine)} lines searched).`, 0);
  }
  const bounded = scan.countedThrough !== null;
  const count = bounded
    ? `at least ${fmtCount(scan.matchedLines)}`
    : scan.countCapped
      ? `${fmtCount(scan.matchedLines)}+`
      : fmtCount(scan.matchedLines);
  const through = bounded ? ` (counted through line ${fmtCount(scan.countedThrough!)})` : "";
  const header = `grep ${shown} in ${input.id}${where}: ${count} matching line${scan.matchedLines === 1 ? "" : "s"} of ${fmtCount(total)}${through}`;
  const items = scan.items.map((i) => i.text);
  const more = scan.matchedLines > items.length || scan.countCapped || bounded;
  const fit = fitItems(header, items, input.limits.maxChars, (n, cutItem) => {
    if (n >= items.length && !more && !cutItem) return "";
    const cap = `answer cap ${fmtCount(input.limits.maxChars)} chars`;
    if (cutItem) {
      const l = scan.items[0]!.line;
      return `[the first block was cut (${cap}); read lines ${l}–${l} with range start=${l} count=1, or use a smaller context]`;
    }
    const next = n > 0 ? scan.items[Math.min(n, items.length) - 1]!.line + 1 : fromLine;
    return `[showed ${n} of ${count} matching lines (${cap}); continue with grep from_line=${next}, or narrow the pattern]`;
  });
  return ok(fit.text, fit.bodyChars, fit.shown < items.length || more || fit.cutItem);
}

/** `chain`: grep plus `context` lines around each hit, overlapping windows merged, "--" between. */
export function chainMode(input: FetchInput, args: FetchArgs["chain"]): FetchAnswer {
  const { pattern, ignore_case: ignoreCase, from_line: fromLine, context } = args;
  const mode = "chain";
  const pat = compilePattern(pattern, ignoreCase);
  if (!pat.ok) return fail(pat.message);
  const text = input.content;
  // The stored line count follows the same convention; recounting 100 MB would cost ~50 ms.
  const total = input.meta.chars === text.length ? input.meta.lines : countLines(text);
  if (fromLine > 0 && fromLine >= total) {
    return fail(
      `The argument from_line of mode ${mode} is ${fromLine}, past the last line (the blob has ${fmtCount(total)} lines, 0–${Math.max(0, total - 1)}).`,
    );
  }
  const scan = scanLines(text, pat, { fromLine, maxHits: MAX_HITS, countCap: COUNT_CAP });
  const shown = shownPattern(pattern, ignoreCase);
  const where = fromLine > 0 ? ` from line ${fromLine}` : "";
  if (scan.matchedLines === 0) {
    return ok(`No line matches ${shown} in ${input.id}${where} (${fmtCount(total - fromLine)} lines searched).`, 0);
  }
  const count = scan.countCapped ? `${fmtCount(scan.matchedLines)}+` : fmtCount(scan.matchedLines);
  const header = `${mode} ${shown} in ${input.id}${where}: ${count} matching line${scan.matchedLines === 1 ? "" : "s"} of ${fmtCount(total)}, ${context} lines of context`;
  // Each item is one merged context block; lastHit[k] is the last matching line inside item k,
  // where a continuation starts after.
  const blocks = chainBlocks(text, scan.hits, context);
  const items = blocks.map((b, k) => (k > 0 ? "--\n" : "") + b.text);
  const lastLineOf = (k: number) => blocks[k - 1]!.lastHit;
  const more = scan.matchedLines > scan.hits.length || scan.countCapped;
  const fit = fitItems(header, items, input.limits.maxChars, (n, cutItem) => {
    if (n >= items.length && !more && !cutItem) return "";
    const cap = `answer cap ${fmtCount(input.limits.maxChars)} chars`;
    if (cutItem) {
      const b = blocks[0]!;
      return `[the first block was cut (${cap}); read lines ${b.firstLine}–${b.lastLine} with range start=${b.firstLine} count=${b.lastLine - b.firstLine + 1}, or use a smaller context]`;
    }
    const next = n > 0 ? lastLineOf(Math.min(n, items.length)) + 1 : fromLine;
    const what = `${n} of ${items.length}${more ? "+" : ""} blocks`;
    return `[showed ${what} (${cap}); continue with ${mode} from_line=${next}, or narrow the pattern]`;
  });
  const truncated = fit.shown < items.length || more || fit.cutItem;
  return ok(fit.text, fit.bodyChars, truncated);
}

/** The pattern as answers echo it: short, since a pattern may be up to 1,000 chars and the model knows what it sent. */
function shownPattern(pattern: string, ignoreCase: boolean): string {
  return `/${clip(pattern, 80)}/${ignoreCase ? "i" : ""}`;
}

/**
 * One hit line: whole when short, else a snippet centred on the match with its char offset.
 * `text` may be a window of the blob starting at char `base`, line `baseLine`.
 */
function hitLine(text: string, h: LineHit, sep: ":" | "-", base = 0, baseLine = 0): string {
  let lineEnd = h.lineEnd;
  if (lineEnd > h.lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
  if (lineEnd - h.lineStart <= LONG_LINE) return `L${baseLine + h.line}${sep} ${text.slice(h.lineStart, lineEnd)}`;
  const snippet = centreSnippet(text, h.matchStart, Math.max(h.matchEnd, h.matchStart), 240, h.lineStart, lineEnd);
  // The offset is the blob's, so it can be handed to range start_char as is.
  return `L${baseLine + h.line} (${fmtCount(lineEnd - h.lineStart)}-char line, match at char ${base + h.matchStart})${sep} ${snippet}`;
}

interface Block {
  text: string;
  firstLine: number;
  lastLine: number;
  /** The last matching line in the block: a continuation starts after it. */
  lastHit: number;
}

/** Context windows around hits, merged when they overlap or touch. */
function chainBlocks(text: string, hits: readonly LineHit[], context: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < hits.length) {
    // Hits whose windows touch form one block.
    let j = i;
    while (j + 1 < hits.length && hits[j + 1]!.line - context <= hits[j]!.line + context + 1) j++;
    const first = hits[i]!;
    const hitByLine = new Map(hits.slice(i, j + 1).map((h) => [h.line, h]));
    const lines: string[] = [];
    // Walk back from the first hit to the window start, then forward to the window end.
    let start = first.lineStart;
    let line = first.line;
    while (line > first.line - context && start > 0) {
      start = start >= 2 ? text.lastIndexOf("\n", start - 2) + 1 : 0;
      line--;
    }
    const endLine = hits[j]!.line + context;
    const firstLine = line;
    let pos = start;
    for (; line <= endLine && pos < text.length; line++) {
      const nl = text.indexOf("\n", pos);
      const end = nl === -1 ? text.length : nl;
      const hit = hitByLine.get(line);
      lines.push(hit ? hitLine(text, hit, ":") : contextLine(text, line, pos, end));
      if (nl === -1) break;
      pos = nl + 1;
    }
    blocks.push({ text: lines.join("\n"), firstLine, lastLine: firstLine + lines.length - 1, lastHit: hits[j]!.line });
    i = j + 1;
  }
  return blocks;
}

function contextLine(text: string, line: number, start: number, end: number): string {
  const body = text.slice(start, Math.min(end, start + LONG_LINE + 1)).replace(/\r$/, "");
  const rest = end - start - LONG_LINE;
  return `L${line}- ${rest > 0 ? clip(body, LONG_LINE) + ` (+${fmtCount(rest)} chars)` : body}`;
}
