/** The range mode: verbatim lines or chars, capped, naming the span and how to continue. */
import { countLines } from "../text/lines";
import { fail, fmtCount, ok } from "./answer";
import type { FetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";
import { offsetOfLine } from "./grepScan";

/** Lines served when `count` is not given. */
export const DEFAULT_RANGE_LINES = 100;
/** First guess of the room the header and the continuation note take inside `maxChars`. */
const FRAME_RESERVE = 200;

export function rangeMode(input: FetchInput, args: FetchArgs["range"]): FetchAnswer {
  if (input.content.length === 0) return ok(`Blob ${input.id} is empty (0 lines, 0 chars).`, 0);
  const max = input.limits.maxChars;
  const serve = (budget: number) =>
    args.start !== undefined
      ? lineRange(input, args.start, args.count ?? DEFAULT_RANGE_LINES, budget)
      : charRange(input, args.start_char!, args.count_chars, budget);
  // The frame's length depends on the numbers in it; when the guess was short, shrink the body by the excess.
  let budget = Math.max(20, max - FRAME_RESERVE);
  let answer = serve(budget);
  for (let tries = 0; tries < 3 && !answer.isError && answer.text.length > max && budget > 20; tries++) {
    budget = Math.max(20, budget - (answer.text.length - max));
    answer = serve(budget);
  }
  return answer;
}

function lineRange(input: FetchInput, start: number, count: number, budget: number): FetchAnswer {
  const text = input.content;
  const total = countLines(text);
  if (start >= total) {
    return fail(
      `The argument start of mode range is ${start}, past the last line (blob ${input.id} has ${fmtCount(total)} lines, 0–${total - 1}).`,
    );
  }
  const from = offsetOfLine(text, start);
  let pos = from;
  let line = start;
  const wanted = Math.min(start + count, total);
  while (line < wanted) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl + 1;
    if (end - from > budget) break;
    pos = end;
    line++;
  }
  if (line === start) {
    // The first line alone is over the cap: serve its beginning and continue by chars.
    const lineEnd = text.indexOf("\n", from) === -1 ? text.length : text.indexOf("\n", from);
    const to = safeEnd(text, from + budget);
    const body = text.slice(from, to);
    const head = `line ${start} of ${fmtCount(total)} in ${input.id} is ${fmtCount(lineEnd - from)} chars long; chars ${from}–${to - 1} (of ${fmtCount(text.length)}) follow:`;
    return ok(
      `${head}\n${body}\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap; continue with range start_char=${to}]`,
      body.length,
      true,
    );
  }
  const body = text.slice(from, pos).replace(/\n$/, "");
  const last = line - 1;
  const cut = line < wanted;
  const head = `lines ${start}–${last} of ${fmtCount(total)} in ${input.id}:`;
  const foot = cut
    ? `\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap after line ${last}; continue with range start=${line}]`
    : "";
  return ok(`${head}\n${body}${foot}`, body.length, cut);
}

function charRange(input: FetchInput, start: number, count: number | undefined, budget: number): FetchAnswer {
  const text = input.content;
  if (start >= text.length) {
    return fail(
      `The argument start_char of mode range is ${start}, past the end (blob ${input.id} has ${fmtCount(text.length)} chars, 0–${text.length - 1}).`,
    );
  }
  const requestedEnd = Math.min(text.length, start + (count ?? text.length));
  const to = safeEnd(text, Math.min(requestedEnd, start + budget));
  const body = text.slice(start, to);
  const firstLine = lineAt(text, start);
  const lastLine = firstLine + countNewlines(text, start, to - 1);
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}–${lastLine}`;
  const head = `chars ${start}–${to - 1} of ${fmtCount(text.length)} in ${input.id} (${lines}):`;
  const cut = to < requestedEnd;
  const foot = cut ? `\n[cut at the ${fmtCount(input.limits.maxChars)}-char cap; continue with range start_char=${to}]` : "";
  return ok(`${head}\n${body}${foot}`, body.length, cut);
}

/** Pulls an end offset back so a surrogate pair is never split. */
function safeEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

function lineAt(text: string, offset: number): number {
  return countNewlines(text, 0, offset);
}

/** Newlines in `[from, to)`. */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  let i = text.indexOf("\n", from);
  while (i !== -1 && i < to) {
    n++;
    i = text.indexOf("\n", i + 1);
  }
  return n;
}
