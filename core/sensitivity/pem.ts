/**
 * Private keys in PEM/PGP armour. Handled apart from the RE2 table because a body spans many
 * lines, may sit in a JSON string with escaped `\n`, and is often cut off (a truncated `cat`):
 * a missing END line must still mask what is there, and a regex searching for a far-away END
 * would rescan the rest of the text on every match.
 */
import RE2 from "re2";
import type { SecretFinding } from "./secrets";

// An OpenVPN static key (`--tls-auth`, `--secret`) is a shared secret in the same armour.
const HEADER = /-----BEGIN (?:[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V1)-----/g;
/** Longest body looked at: an 8192-bit RSA key is ~6.5 k chars, PGP keys with subkeys more. */
const MAX_BODY = 64_000;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
const ARMOR_HEADER_LINE = /^[A-Za-z-]+: /; // PGP `Version: …`, PEM `Proc-Type: …`
/** A body that is only masking markers (masking masked text must change nothing). */
const ALREADY_MASKED = /^(?:\s|\\+[nr]|\[masked:[a-z0-9_]+\])*$/;
/** A body that is a template's interpolation (`-----BEGIN PRIVATE KEY-----\n${der.toString("base64")}`): code that builds a key. */
const INTERPOLATED = /^(?:\s|\\+[nr])*\$\{[^{}]*\}(?:\s|\\+[nr])*$/;
/** base64 of "-----BEGIN": a PEM file stored base64-encoded (kubernetes `tls.key`). */
const B64_PEM_MARK = "LS0tLS1CRUdJTi";

/**
 * Whether a text can hold armour at all, asked of its UTF-8 bytes when at hand: RE2 finds a
 * literal in bytes at memchr speed on any text, where V8's string search speed depends on the
 * text (0.1 ms for "PRIVATE KEY" in 191 KB of JSON, 0.5 ms for a near twin in 1 MB of log).
 */
const ARMOR = new RE2("PRIVATE KEY");
const B64_ARMOR = new RE2(B64_PEM_MARK);
const OPENVPN = new RE2("OpenVPN Static key");
const holds = (literal: string, re: RE2, text: string, utf8: Buffer | undefined) =>
  utf8 === undefined ? text.includes(literal) : re.test(utf8 as unknown as string);

/**
 * Spans of private-key bodies (between the armour lines, which stay visible). `utf8`: the
 * text's UTF-8 bytes when the text is ASCII (see scanSubject), for the two literal filters.
 */
export function findPrivateKeys(text: string, utf8?: Buffer): SecretFinding[] {
  const found: SecretFinding[] = [];
  if (holds("PRIVATE KEY", ARMOR, text, utf8) || holds("OpenVPN Static key", OPENVPN, text, utf8)) {
    HEADER.lastIndex = 0;
    let m: RegExpExecArray | null;
    // The next END line at or after the header being read, found once and reused: searched
    // again from every header, a text of many BEGIN lines and no END was quadratic (11 s at 1 MB).
    let nextEnd = -2;
    while ((m = HEADER.exec(text))) {
      const from = m.index + m[0].length;
      if (nextEnd === -2 || (nextEnd !== -1 && nextEnd < from)) nextEnd = text.indexOf("-----END ", from);
      const endMark = nextEnd;
      const end = endMark !== -1 && endMark - from <= MAX_BODY ? endMark : truncatedBodyEnd(text, from);
      const span = trimBody(text, from, end);
      if (span && !ALREADY_MASKED.test(text.slice(span.start, span.end)) && !INTERPOLATED.test(text.slice(span.start, span.end)))
        found.push({ type: "private_key", ...span });
      HEADER.lastIndex = Math.max(end, from);
    }
  }
  if (holds(B64_PEM_MARK, B64_ARMOR, text, utf8)) findBase64Pem(text, found);
  return found;
}

/** Where a body without END stops: the end of a same-line escaped body, or the last base64 line. */
function truncatedBodyEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  const lineEnd = nl === -1 ? text.length : nl;
  if (text.slice(from, lineEnd).trim() !== "") {
    let j = from;
    while (j < lineEnd && j - from < MAX_BODY && /[A-Za-z0-9+/=\\]/.test(text[j]!)) j++;
    return j;
  }
  let end = lineEnd;
  let pos = lineEnd + 1;
  let seenBody = false;
  while (pos < text.length && pos - from < MAX_BODY) {
    const next = text.indexOf("\n", pos);
    const stop = next === -1 ? text.length : next;
    const line = text.slice(pos, stop).trim();
    if (BASE64_LINE.test(line)) seenBody = true;
    else if (seenBody || (line !== "" && !ARMOR_HEADER_LINE.test(line))) break;
    end = stop;
    pos = stop + 1;
  }
  return end;
}

/** Length of the whitespace or escaped newline at the start of `s` (0 if none). */
function skippable(s: string): number {
  return /^(?:\s|\\+[nr])/.exec(s)?.[0].length ?? 0;
}

/** Drops leading/trailing whitespace and escaped newlines so the armour and the `\n`s stay. */
function trimBody(text: string, start: number, end: number): { start: number; end: number } | null {
  let s = start;
  for (let n; s < end && (n = skippable(text.slice(s, Math.min(end, s + 8)))) > 0;) s += n;
  let e = end;
  while (e > s) {
    const ch = text[e - 1]!;
    if (/\s/.test(ch)) e--;
    else if ((ch === "n" || ch === "r") && text[e - 2] === "\\") {
      e -= 2;
      while (e > s && text[e - 1] === "\\") e--;
    } else break;
  }
  return e > s ? { start: s, end: e } : null;
}

function findBase64Pem(text: string, found: SecretFinding[]): void {
  let at = text.indexOf(B64_PEM_MARK);
  while (at !== -1) {
    let end = at;
    while (end < text.length && /[A-Za-z0-9+/=]/.test(text[end]!)) end++;
    const head = text.slice(at, at + Math.min(80, (end - at) & ~3));
    if (Buffer.from(head, "base64").toString("latin1").includes("PRIVATE KEY")) {
      found.push({ type: "private_key", start: at, end });
    }
    at = text.indexOf(B64_PEM_MARK, end);
  }
}
