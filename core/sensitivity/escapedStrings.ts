/**
 * Secrets inside JSON string literals. Shell, Kubernetes and Docker MCP servers wrap a command's
 * output in JSON (`{"exit_code":0,"stdout":"…\nghp_…\n"}`), and its escapes hide what the
 * patterns key on: a line start (`\n` is two characters), a quote (`\"`), a line end. So every
 * string literal that holds an escape is decoded and scanned like any text, and what is found is
 * mapped back onto whole escapes of the original: masking it keeps the JSON valid.
 *
 * Literals are paired the way JSON pairs them, from the first quote on, and never across a raw
 * line break (JSON strings hold none), so prose with a stray quote costs one line at most. The
 * decoded literals are scanned in batches of about 1 MB, never all at once: a 50 MB JSON of
 * escaped logs adds one batch of memory, not a copy and an offset map of the whole text.
 */
import type { SecretFinding } from "./secrets";

/** The content of a string literal holding at least one escape: [start, end) between its quotes. */
export interface EscapedString {
  start: number;
  end: number;
}

const BATCH_CHARS = 1 << 20;
/** Between decoded literals in a batch: no pattern runs across a blank line and a NUL. */
const SEPARATOR = "\n\n\0\n\n";
const SIMPLE: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** The string literals of `text` that hold an escape, in order. Linear: each search moves on. */
export function escapedStrings(text: string): EscapedString[] {
  const out: EscapedString[] = [];
  if (text.indexOf("\\") === -1) return out;
  // The next backslash and line break at or after the search point; -1: none left in the text.
  let slash = text.indexOf("\\");
  let newline = text.indexOf("\n");
  const ahead = (cached: number, ch: string, at: number) => (cached === -1 || cached >= at ? cached : text.indexOf(ch, at));
  let quote = text.indexOf('"');
  let open = quote;
  while (open !== -1) {
    let at = open + 1;
    let escaped = false;
    let close: number;
    let closedByQuote: boolean;
    for (;;) {
      quote = ahead(quote, '"', at);
      slash = ahead(slash, "\\", at);
      newline = ahead(newline, "\n", at);
      const end = Math.min(quote === -1 ? text.length : quote, newline === -1 ? text.length : newline);
      if (slash !== -1 && slash < end) {
        escaped = true;
        at = Math.min(slash + 2, text.length); // the escaped character is never a delimiter
        continue;
      }
      close = end;
      closedByQuote = quote === end;
      break;
    }
    if (escaped && close > open + 1) out.push({ start: open + 1, end: close });
    if (close >= text.length) break;
    open = closedByQuote ? text.indexOf('"', close + 1) : text.indexOf('"', close);
  }
  return out;
}

/** Chars of the escape starting at the backslash at `at` (a literal ends at `end`): 6 for `\uXXXX`, else 2. */
function escapeLength(text: string, at: number, end: number): number {
  return text[at + 1] === "u" && at + 6 <= end && /^[0-9A-Fa-f]{4}$/.test(text.slice(at + 2, at + 6)) ? 6 : 2;
}

/** The decoded text of a literal's content, as JSON.parse would give it (a bad escape keeps its character). */
function decode(text: string, s: EscapedString): string {
  const parts: string[] = [];
  let from = s.start;
  let i = text.indexOf("\\", from);
  while (i !== -1 && i < s.end) {
    parts.push(text.slice(from, i));
    const c = text[i + 1] ?? "";
    const length = escapeLength(text, i, s.end);
    parts.push(length === 6 ? String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)) : (SIMPLE[c] ?? c));
    from = Math.min(i + length, s.end);
    i = text.indexOf("\\", from);
  }
  parts.push(text.slice(from, s.end));
  return parts.join("");
}

/**
 * Where in `text` decoded characters of a literal came from, walking forward from the last one
 * asked (findings come in order, so a literal is walked once however many it holds).
 */
class OffsetWalk {
  private s: EscapedString | null = null;
  private decoded = 0;
  private at = 0;

  constructor(private readonly text: string) {}

  /** The offset in `text` of decoded character `index` of literal `s` (`s.end` past its last). */
  offset(s: EscapedString, index: number): number {
    if (this.s !== s || index < this.decoded) {
      this.s = s;
      this.decoded = 0;
      this.at = s.start;
    }
    const t = this.text;
    while (this.decoded < index && this.at < s.end) {
      if (t.charCodeAt(this.at) !== 92) this.at++;
      else this.at += escapeLength(t, this.at, s.end);
      this.decoded++;
    }
    return Math.min(this.at, s.end);
  }
}

/**
 * Findings of `scan` over the decoded literals, as spans of `text` made of whole characters and
 * escapes; a finding is kept to the literal it starts in.
 */
export function findInEscaped(
  text: string,
  strings: readonly EscapedString[],
  scan: (decoded: string) => SecretFinding[],
): SecretFinding[] {
  const found: SecretFinding[] = [];
  const walk = new OffsetWalk(text);
  let i = 0;
  while (i < strings.length) {
    const batch: string[] = [];
    const starts: number[] = [];
    const first = i;
    let length = 0;
    do {
      const d = decode(text, strings[i]!);
      starts.push(length);
      batch.push(d);
      length += d.length + SEPARATOR.length;
      i++;
    } while (i < strings.length && length < BATCH_CHARS);
    for (const f of scan(batch.join(SEPARATOR))) {
      // The literal the finding starts in: the last whose decoded start is at or before it.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= f.start) lo = mid;
        else hi = mid - 1;
      }
      const own = batch[lo]!.length;
      const from = f.start - starts[lo]!;
      if (from >= own) continue; // on a separator
      const s = strings[first + lo]!;
      const start = walk.offset(s, from);
      const end = walk.offset(s, Math.min(f.end - starts[lo]!, own));
      if (end > start) found.push({ type: f.type, start, end });
    }
  }
  return found;
}

/** The literal holding offset `at`, if any (binary search: `strings` are in order). */
export function stringAt(strings: readonly EscapedString[], at: number): EscapedString | null {
  let lo = 0;
  let hi = strings.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = strings[mid]!;
    if (at < s.start) hi = mid - 1;
    else if (at >= s.end) lo = mid + 1;
    else return s;
  }
  return null;
}

/**
 * Whether a value found in the raw text of a literal runs past its decoded line: over an escaped
 * line break or tab (`DB_PASSWORD=x\nPORT=3000` is one line of JSON and two of output), or onto
 * the backslash of an escaped quote (`-H \"X-Api-Key: …\"`), whose mask would break the JSON.
 */
export function runsPastLine(text: string, s: EscapedString, start: number, end: number): boolean {
  if (end > s.end) return true;
  // Whether `start` itself falls after an escaping backslash decides the parity from there.
  let run = 0;
  while (start - run - 1 >= s.start && text.charCodeAt(start - run - 1) === 92) run++;
  let i = run % 2 === 1 ? start + 1 : start;
  while (i < end) {
    if (text.charCodeAt(i) !== 92) {
      i++;
      continue;
    }
    const c = text[i + 1];
    if (c === "n" || c === "r" || c === "t" || i + 1 >= end) return true;
    i += 2;
  }
  return false;
}
