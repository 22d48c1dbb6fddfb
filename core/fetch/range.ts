/** The range mode: verbatim lines or chars, capped, naming the span and how to continue. */
import { stringDoc, type TextDoc } from "../text/textDoc";
import { fail, fmtCount, ok } from "./answer";
import type { FetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

/** Lines served when `count` is not given. */
export const DEFAULT_RANGE_LINES = 100;
/** First guess of the room the header and the continuation note take inside `maxChars`. */
const FRAME_RESERVE = 200;

export function rangeMode(input: FetchInput, args: FetchArgs["range"]): FetchAnswer {
  const doc = docOf(input);
  if (doc.length === 0) return ok(`Blob ${input.id} is empty (0 lines, 0 chars).`, 0);
  const max = input.limits.maxChars;
  const serve = (budget: number) =>
    args.start !== undefined
      ? lineRange(input, doc, args.start, args.count ?? DEFAULT_RANGE_LINES, budget)
      : charRange(input, doc, args.start_char!, args.count_chars, budget);
  // The frame's length depends on the numbers in it; when the guess was short, shrink the body by the excess.
  let budget = Math.max(20, max - FRAME_RESERVE);
  let answer = serve(budget);
  for (let tries = 0; tries < 3 && !answer.isError && answer.text.length > max && budget > 20; tries++) {
    budget = Math.max(20, budget - (answer.text.length - max));
    answer = serve(budget);
  }
  return answer;
}

function lineRange(input: FetchInput, doc: TextDoc, start: number, count: number, budget: number): FetchAnswer {
  const total = doc.lines;
  if (start >= total) {
    return fail(
      `The argument start of mode range is ${start}, past the last line (blob ${input.id} has ${fmtCount(total)} lines, 0–${total - 1}).`,
    );
  }
  const from = doc.lineOffset(start);
  // Lines are served while they fit the budget: all of them lie within budget + 1 chars of `from`.
  const span = doc.slice(from, from + budget + 1);
  const spanEnd = from + span.length;
  let pos = from;
  let line = start;
  const wanted = Math.min(start + count, total);
  while (line < wanted) {
    const nl = span.indexOf("\n", pos - from);
    const end = nl === -1 ? (spanEnd === doc.length ? doc.length : Infinity) : from + nl + 1;
    if (end - from > budget) break;
    pos = end;
    line++;
  }
  if (line === start) {
    // The first line alone is over the cap: serve its beginning and continue by chars.
    const lineEnd = doc.lineEnd(start);
    const to = safeEnd(span, from, doc.length, from + budget);
    const body = span.slice(0, to - from);
    const head = `line ${start} of ${fmtCount(total)} in ${input.id} is ${fmtCount(lineEnd - from)} chars long; chars ${from}–${to - 1} (of ${fmtCount(doc.length)}) follow:`;
    return ok(
      `${head}\n${body}\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap; continue with range start_char=${to}]`,
      body.length,
      true,
    );
  }
  const body = span.slice(0, pos - from).replace(/\n$/, "");
  const last = line - 1;
  const cut = line < wanted;
  const head = `lines ${start}–${last} of ${fmtCount(total)} in ${input.id}:`;
  const foot = cut
    ? `\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap after line ${last}; continue with range start=${line}]`
    : "";
  return ok(`${head}\n${body}${foot}`, body.length, cut);
}

function charRange(input: FetchInput, doc: TextDoc, start: number, count: number | undefined, budget: number): FetchAnswer {
  if (start >= doc.length) {
    return fail(
      `The argument start_char of mode range is ${start}, past the end (blob ${input.id} has ${fmtCount(doc.length)} chars, 0–${doc.length - 1}).`,
    );
  }
  // A surrogate pair is one character: a range starting or ending inside one takes all of it.
  const from = start > 0 && isLow(doc.slice(start, start + 1)) && isHigh(doc.slice(start - 1, start)) ? start - 1 : start;
  let requestedEnd = Math.min(doc.length, start + (count ?? doc.length));
  if (requestedEnd < doc.length && isHigh(doc.slice(requestedEnd - 1, requestedEnd))) requestedEnd++;
  const capped = Math.min(requestedEnd, from + budget);
  const span = doc.slice(from, Math.min(doc.length, capped + 1));
  let to = safeEnd(span, from, doc.length, capped);
  if (to <= from) to = Math.min(doc.length, from + 2); // the cap is smaller than the one character asked for
  const body = span.slice(0, to - from);
  const firstLine = doc.lineAt(from);
  const lastLine = firstLine + countNewlines(body.slice(0, -1));
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}–${lastLine}`;
  const head = `chars ${from}–${to - 1} of ${fmtCount(doc.length)} in ${input.id} (${lines}):`;
  const cut = to < requestedEnd;
  const foot = cut ? `\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap; continue with range start_char=${to}]` : "";
  return ok(`${head}\n${body}${foot}`, body.length, cut);
}

/** The blob as a TextDoc: the engine's reader in parts when it gave one, else the text in memory. */
function docOf(input: FetchInput): TextDoc {
  return input.doc ?? stringDoc(input.content);
}

/** Pulls an end offset back so a surrogate pair is never split; `span` holds the chars from `spanStart`. */
function safeEnd(span: string, spanStart: number, length: number, end: number): number {
  if (end >= length) return length;
  const c = span.charCodeAt(end - 1 - spanStart);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

function isHigh(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0xdc00 && code <= 0xdfff;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
