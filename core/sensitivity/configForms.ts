/**
 * Two ways config files write a secret that the scan's single RE2 program leaves out: a
 * Dockerfile's legacy `ENV NAME value` (a space, no `=`) and a YAML block scalar (`password: >-`,
 * the value on the lines below). Each written as one more alternative of the key-name part put
 * the program's DFA out of RE2's memory on minified code (4.6 MB took 4.4 s instead of 57 ms),
 * so they are found here instead: one small regex pass for `ENV ` (kept at a line start) and for
 * `: |` / `: >`, then each place under a secret-like name is read as the assignment it means
 * (`NAME=value`, `key: "value"`) and judged by the scan's own table and rules (`judge`), so both
 * passes agree on which names hold a secret (`GPG_KEY`, `CACHE_KEY` do not) and which values are
 * placeholders, references or file paths.
 */
import type { SecretFinding } from "./secrets";

/** The main scan over one short synthetic line (`NAME=value`): its findings, offsets in that line. */
export type AssignmentJudge = (line: string) => SecretFinding[];

/** A cheap superset of the key words the judge knows: the judge is asked only about these names. */
const SECRET_WORD = /pass|pwd|secret|token|cred|key|totp/i;
/** Longest key and value read here: a longer one is not a config entry. */
const MAX_KEY = 200;
const MAX_VALUE = 8192;
/** A line masking already replaced. */
const MASKED = /^\[masked:[a-z0-9_]+\]$/;

/** Where either form may be: `ENV` and a blank, a `: |` or `: >` (one regex pass costs less than three indexOf walks). */
const CANDIDATE = /ENV[ \t]|: [|>]/g;

/** Findings for Dockerfile `ENV NAME value` lines and YAML block scalars under secret-named keys. */
export function findConfigForms(text: string, judge: AssignmentJudge): SecretFinding[] {
  const found: SecretFinding[] = [];
  CANDIDATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CANDIDATE.exec(text))) {
    if (text.charCodeAt(m.index) === 69) dockerEnv(text, m.index, judge, found);
    // A block read is not read again for the headers inside it (it was judged whole): linear in the text.
    else CANDIDATE.lastIndex = Math.max(CANDIDATE.lastIndex, yamlBlock(text, m.index, judge, found));
  }
  return found;
}

/** Whether only blanks come before `at` on its line. */
function atLineStart(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && isBlank(text.charCodeAt(i - 1))) i--;
  return i === 0 || text.charCodeAt(i - 1) === 10;
}

/**
 * Where the line holding `at` starts, looked for within MAX_KEY chars back (-1: further): an
 * unbounded search back is quadratic on a one-line text with many candidates.
 */
function keyLineStart(text: string, at: number): number {
  const from = Math.max(0, at - MAX_KEY);
  const nl = text.slice(from, at).lastIndexOf("\n");
  return nl !== -1 ? from + nl + 1 : from === 0 ? 0 : -1;
}

/**
 * Where the line holding `from` ends (before its `\r\n` or `\n`), or -1 when it runs on past
 * `limit` chars: searched no further, or one-line texts would be searched to their end per candidate.
 */
function lineEnd(text: string, from: number, limit: number): number {
  const nl = text.slice(from, from + limit + 1).indexOf("\n");
  if (nl === -1 && from + limit + 1 < text.length) return -1;
  const end = nl === -1 ? text.length : from + nl;
  return end > from && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * `ENV NAME value` at a line start: Docker reads it as `ENV NAME="value"` (the whole rest of the
 * line), so it is judged as that assignment and the finding mapped back onto the value.
 */
function dockerEnv(text: string, at: number, judge: AssignmentJudge, found: SecretFinding[]): void {
  if (!isBlank(text.charCodeAt(at + 3)) || !atLineStart(text, at)) return;
  let i = at + 3;
  while (isBlank(text.charCodeAt(i))) i++;
  const nameStart = i;
  const end = lineEnd(text, i, MAX_KEY + MAX_VALUE);
  if (end === -1) return;
  while (i < end && !isBlank(text.charCodeAt(i)) && text.charCodeAt(i) !== 61) i++;
  // `ENV NAME=value` (the main scan's), or a name alone
  if (i === nameStart || i >= end || text.charCodeAt(i) === 61 || i - nameStart > MAX_KEY) return;
  const name = text.slice(nameStart, i);
  if (!SECRET_WORD.test(name)) return;
  while (isBlank(text.charCodeAt(i))) i++;
  let valueEnd = end;
  while (valueEnd > i && isBlank(text.charCodeAt(valueEnd - 1))) valueEnd--;
  // a line continued (`ENV TOKEN abc \`): the backslash is not part of the value
  if (text.charCodeAt(valueEnd - 1) === 92 && valueEnd - 1 > i && isBlank(text.charCodeAt(valueEnd - 2))) {
    valueEnd--;
    while (valueEnd > i && isBlank(text.charCodeAt(valueEnd - 1))) valueEnd--;
  }
  if (valueEnd <= i || valueEnd - i > MAX_VALUE) return;
  judgeValue(`${name}=`, text, i, valueEnd, judge, found);
}

/**
 * Judges `key` + the value at [start, end) of `text` as one assignment, written as the file
 * means it: as it stands when it is quoted or one word, in double quotes (single when it holds
 * a double) when it has blanks. A finding of the judge maps back onto the value.
 */
function judgeValue(key: string, text: string, start: number, end: number, judge: AssignmentJudge, found: SecretFinding[]): void {
  const value = text.slice(start, end);
  const q = value.charCodeAt(0);
  const asIs = q === 34 || q === 39 || !/[ \t]/.test(value);
  const quote = asIs ? "" : !value.includes('"') ? '"' : !value.includes("'") ? "'" : "";
  const offset = key.length + quote.length;
  for (const f of judge(key + quote + value + quote)) {
    const s = Math.max(f.start - offset, 0);
    const e = Math.min(f.end - offset, value.length);
    if (e > s) found.push({ type: f.type, start: start + s, end: start + e });
  }
}

/**
 * `key: |` or `key: >-` (chomping and indentation indicators, a comment after them) with the
 * value on the lines below, indented deeper than the key. One line is judged as `key: "line"`;
 * several are judged as one folded value, and masked whole when the judge finds a secret in it.
 * Returns where the block it read ends (0 when it read none).
 */
function yamlBlock(text: string, at: number, judge: AssignmentJudge, found: SecretFinding[]): number {
  const end = lineEnd(text, at, MAX_KEY);
  if (end === -1 || !/^[|>][-+0-9]{0,3}[ \t]*(?:#.*)?$/.test(text.slice(at + 2, end))) return 0;
  const start = keyLineStart(text, at);
  if (start === -1) return 0;
  let k = start;
  while (isBlank(text.charCodeAt(k))) k++;
  if (text.charCodeAt(k) === 45 && isBlank(text.charCodeAt(k + 1))) {
    k += 2; // a sequence item: `- password: |`
    while (isBlank(text.charCodeAt(k))) k++;
  }
  const key = text.slice(k, at);
  if (key === "" || !SECRET_WORD.test(key)) return 0;
  const keyColumn = k - start;
  // The block: the following lines indented deeper than the key, blank lines among them.
  const lines: { start: number; end: number }[] = [];
  let from = end;
  for (;;) {
    const s = from + (text.charCodeAt(from) === 13 ? 2 : 1);
    if (text.charCodeAt(s - 1) !== 10) break; // the text's end
    // too long to be a secret (a document, a script): left to the main scan
    if (s - end > MAX_VALUE) return s;
    const e = lineEnd(text, s, MAX_VALUE - (s - end));
    if (e === -1) return s;
    let c = s;
    while (isBlank(text.charCodeAt(c))) c++;
    if (c === e) {
      from = e;
      continue;
    }
    if (c - s <= keyColumn) break;
    from = e;
    let t = e;
    while (t > c && isBlank(text.charCodeAt(t - 1))) t--;
    lines.push({ start: c, end: t });
  }
  if (lines.length === 0) return from;
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  if (lines.length === 1) {
    judgeValue(`${key}: `, text, first.start, first.end, judge, found);
    return from;
  }
  const values = lines.map((l) => text.slice(l.start, l.end));
  if (values.every((v) => MASKED.test(v))) return from; // masked already: masking masked text finds nothing new
  const folded = values.join(" ");
  const quote = !folded.includes('"') ? '"' : !folded.includes("'") ? "'" : "";
  const offset = key.length + 2 + quote.length;
  const hit = judge(`${key}: ${quote}${folded}${quote}`).find((f) => f.end > offset);
  if (hit) found.push({ type: hit.type, start: first.start, end: last.end });
  return from;
}
