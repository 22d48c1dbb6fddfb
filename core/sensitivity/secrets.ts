/**
 * Secret detection and masking over arbitrary tool output. Two RE2 passes (secretPatterns.ts)
 * plus indexOf walks for private keys (pem.ts; keyFiles.ts for JWKs and PuTTY keys), one for
 * Kubernetes Secrets (kubeSecrets.ts) and one for Dockerfile `ENV NAME value` lines and YAML
 * block scalars (configForms.ts, judged by the same table); context-bound matches go through the
 * false-positive filters (placeholders.ts). String literals that hold escapes (JSON-wrapped
 * command output) are also scanned decoded (escapedStrings.ts). Linear in the text; see
 * `npm run bench -- secrets`.
 */
import { findConfigForms } from "./configForms";
import { findDelimitedTables } from "./delimitedTables";
import { blankedWindows } from "./escapeCodes";
import { escapedStrings, findInEscaped, runsPastLine, stringAt, type EscapedString } from "./escapedStrings";
import { findKeyFiles } from "./keyFiles";
import { findKubernetesSecrets } from "./kubeSecrets";
import { findPrivateKeys } from "./pem";
import { findSpacedKeys } from "./spacedKeys";
import { isPlaceholderValue, looksRandom } from "./placeholders";
import {
  QUOTED_ASSIGNMENT,
  QUOTED_ENV_ASSIGNMENT,
  SECRET_PATTERNS,
  classifyKey,
  SCAN_GROUPS,
  compileScan,
  isSecretKeyName,
  matchEntry,
  tokenTypeOf,
  type ScanGroup,
  type SecretPattern,
} from "./secretPatterns";

/** A detected secret: `start`/`end` delimit the secret VALUE (UTF-16 offsets, end exclusive). */
export interface SecretFinding {
  type: string;
  start: number;
  end: number;
}

type Scanner = ReturnType<typeof compileScan>;
// Compiled on first use (about 20 ms): `spillway mcp` loads this module before its first answers, which never mask.
// The blanked windows (escapeCodes.ts) get their own: their text grows RE2's state cache with states
// the main scan never needs, and a shared cache then resets and is rebuilt by the next main scan.
const compiled = new Map<string, Scanner>();
function scanner(group: ScanGroup, forWindows = false): Scanner {
  const key = `${group}${forWindows ? ":windows" : ""}`;
  let s = compiled.get(key);
  if (!s) compiled.set(key, (s = compileScan(group)));
  return s;
}
/** Minimum value length per key class: a 3-char password is real, a 3-char "token" is a flag. */
const MIN_LENGTH: Record<string, number> = { password: 3 };
const DEFAULT_MIN_LENGTH = 8;

/**
 * What RE2 is given to scan: `utf8`, the text's UTF-8 bytes, when the text is ASCII (then, and
 * only then, its byte length is its length, so byte offsets are char offsets); else the text.
 * RE2 converts a JS string to UTF-8 on every scan, which costs as much as the scan itself, so
 * callers that hold the bytes already (the rescue path encoded them for the id) save that.
 */
export function scanSubject(text: string, utf8?: Buffer): string {
  // RE2 takes a Buffer wherever it takes a string; typed as a string so callers keep one path.
  return utf8 !== undefined && utf8.length === text.length ? (utf8 as unknown as string) : text;
}

/** From this length on, a decoded literal is encoded once for both scan expressions (below it the copy costs more than it saves). */
const ENCODE_ONCE_CHARS = 64 * 1024;

/** Escaped strings inside escaped strings are decoded this many times over (`{\\\"password\\\": …}`). */
const ESCAPE_DEPTH = 3;

/** Every secret value in `text`, sorted by start, overlaps merged. `utf8`: its UTF-8 bytes, when at hand (see scanSubject). */
export function findSecrets(text: string, utf8?: Buffer): SecretFinding[] {
  return findAtDepth(text, utf8, 0);
}

function findAtDepth(text: string, utf8: Buffer | undefined, depth: number): SecretFinding[] {
  if (typeof text !== "string" || text.length === 0) return [];
  const strings = depth < ESCAPE_DEPTH ? escapedStrings(text) : [];
  // RE2 converts a string to UTF-8 for each of the two scan expressions. The rescue path passes a
  // result's bytes; a decoded JSON literal (command output wrapped in JSON) never has them, so a
  // long one is encoded once for both. (Encoding every long text once costs more where matches are
  // many: RE2 then hands back each match as a Buffer.)
  const encoded = utf8 ?? (depth > 0 && text.length >= ENCODE_ONCE_CHARS ? Buffer.from(text, "utf8") : undefined);
  const subject = scanSubject(text, encoded);
  const bytes = subject === text ? undefined : encoded;
  const found = findPrivateKeys(text, bytes);
  for (const f of findKeyFiles(text, bytes)) found.push(f);
  for (const f of findKubernetesSecrets(text, bytes)) found.push(f);
  for (const group of SCAN_GROUPS) scanPatterns(text, subject, strings, found, group);
  // A colour code or `%3D` right before a token hides its start: a blanked copy around each shows it.
  for (const w of blankedWindows(text)) {
    const inWindow: SecretFinding[] = [];
    const within = stringsWithin(strings, w.start, w.start + w.text.length);
    for (const group of SCAN_GROUPS) scanPatterns(w.text, w.text, within, inWindow, group, true);
    for (const f of inWindow) {
      if (f.start + w.start >= w.keepFrom) found.push({ type: f.type, start: f.start + w.start, end: f.end + w.start });
    }
  }
  for (const f of findConfigForms(text, judgeAssignment)) found.push(f);
  for (const f of findDelimitedTables(text, isSecretColumn, judgeField)) found.push(f);
  for (const f of findSpacedKeys(text)) found.push(f);
  for (const f of findInEscaped(text, strings, (decoded) => findAtDepth(decoded, undefined, depth + 1))) found.push(f);
  return mergeFindings(found);
}

/** The literals overlapping [from, to), as offsets from `from` (sorted by start, as `strings` is). */
function stringsWithin(strings: readonly EscapedString[], from: number, to: number): EscapedString[] {
  let lo = 0;
  let hi = strings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strings[mid]!.end <= from) lo = mid + 1;
    else hi = mid;
  }
  const out: EscapedString[] = [];
  for (let i = lo; i < strings.length && strings[i]!.start < to; i++)
    out.push({ start: strings[i]!.start - from, end: strings[i]!.end - from });
  return out;
}

/** One scan group's findings in `text` (RE2 scans `subject`, the text or its bytes) added to `found`. */
function scanPatterns(
  text: string,
  subject: string,
  strings: readonly EscapedString[],
  found: SecretFinding[],
  group: ScanGroup,
  forWindows = false,
): void {
  const SCAN = scanner(group, forWindows);
  SCAN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SCAN.exec(subject))) {
    const at = m.index;
    // One extra character so a trailing `\b` sees the same neighbour as in the full text.
    const candidate = text.slice(at, at + m[0].length + 1);
    // Whole-line entries are tried only where a line starts (the candidate alone cannot tell).
    const lineStart = at === 0 || text.charCodeAt(at - 1) === 10;
    const parts = matchEntry(candidate, 0, lineStart ? m[0].length : undefined, group);
    if (!parts) {
      SCAN.lastIndex = at + 1;
      continue;
    }
    let verdict = judge(parts, text, at);
    if (!verdict.type && SECRET_PATTERNS[parts.entry]!.wholeLine) verdict = judgeInline(parts, candidate, text, at) ?? verdict;
    const { type, start, end, after } = verdict;
    // Inside an escaped literal, a value that runs past its decoded line (`DB_PASSWORD=x\nPORT=3000`)
    // or onto an escaped quote is left to the decoded scan below, which judges the line as it reads.
    const literal = type && strings.length > 0 ? stringAt(strings, start) : null;
    if (type && (!literal || !runsPastLine(text, literal, start, end))) found.push({ type, start, end });
    // A rejected `password: see ghp_…` may still hold a token: rescan from the value.
    SCAN.lastIndex = Math.max(type ? after : start, at + 1);
  }
}

type EntryMatch = NonNullable<ReturnType<typeof matchEntry>>;
interface Verdict {
  type: string | null;
  start: number;
  end: number;
  after: number;
}

/** The verdict on one entry's match at `at`, with where its value starts and ends. */
function judge(parts: EntryMatch, text: string, at: number): Verdict {
  const start = at + parts.prefix.length;
  const end = start + parts.value.length;
  const after = end + parts.suffix.length;
  return { type: accept(SECRET_PATTERNS[parts.entry]!, parts.prefix, parts.value, text, at, after), start, end, after };
}

/**
 * A whole line's value judged no secret (`password=input()`): the key judged again as it was before
 * whole lines were read, its value cut at punctuation (the entry after), from the key on.
 */
function judgeInline(parts: EntryMatch, candidate: string, text: string, at: number): Verdict | null {
  const key = /[A-Za-z0-9_.-]*=[ \t]*$/.exec(parts.prefix)![0].length;
  const from = parts.prefix.length - key;
  const inline = matchEntry(candidate.slice(from), parts.entry + 1);
  return inline?.entry === parts.entry + 1 ? judge(inline, text, at + from) : null;
}

/** The table's verdict on one assignment configForms.ts rewrote (`ENV NAME value` as `NAME=value`). */
function judgeAssignment(line: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const group of SCAN_GROUPS) scanPatterns(line, line, [], found, group);
  return found;
}

/** A column of a delimited table named for `auth` alone: what it holds is a secret only when it looks generated. */
const AUTH_COLUMN = /^auth(?:orization)?$/i;
/** Whether a table's column (its name as a key, `Api Key` → `Api_Key`) holds secrets, as an assignment's key would. */
function isSecretColumn(name: string): boolean {
  return isSecretKeyName(name) || AUTH_COLUMN.test(name);
}

/** A table field judged as `name="value"` would be (delimitedTables.ts): its type, or null. */
function judgeField(name: string, value: string): string | null {
  const strict = AUTH_COLUMN.test(name);
  const prefix = `${strict ? "AUTH_KEY" : name}="`;
  const line = `${prefix}${value}"`;
  const type = accept(SECRET_PATTERNS[strict ? QUOTED_ENV_ASSIGNMENT : QUOTED_ASSIGNMENT]!, prefix, value, line, 0, line.length);
  return strict && type === "api_key" ? "secret" : type;
}

/** A line's whole value that is a call or an index in code, not a literal: `input()`, `getPassword();`, `tokens[i];`. */
const CODE_LINE_VALUE = /^[A-Za-z_$][\w$.]*[([].*[)\];]$/;

/** The finding's type when the match is a secret, or null when it is a false positive. */
function accept(p: SecretPattern, prefix: string, value: string, text: string, at: number, after: number): string | null {
  if (!p.contextual) return p.type;
  if (value.length === 0 || value.length < (p.minLength ?? 1)) return null;
  if (p.endsLine && !/^\r?(?:\n|$)/.test(text.slice(after, after + 2))) return null;
  if (p.contextual === "cookie") return cookieHoldsSecret(value) ? p.type : null;
  if (p.contextual === "command" && !p.commands?.test(lineBefore(text, at, at + prefix.replace(/[ \t"']+$/, "").length))) return null;
  if (p.contextual !== "assignment") {
    if (isPlaceholderValue(value) || value.startsWith("-")) return null;
    const specific = tokenTypeOf(value);
    if (p.contextual === "random" && !specific && !looksRandom(value)) return null;
    return specific ?? p.type;
  }
  if (/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(value)) return null; // pem.ts masks the body, keeps the armour
  if (p.wholeLine && CODE_LINE_VALUE.test(value)) return null; // `password=getpass();`, `token=tokens[0]`
  const key = /[A-Za-z0-9_.-]*(?=["'\\\]]*[ \t]*(?:=>|:=|=|:)[ \t]*["'\\]*$)/.exec(prefix)?.[0] ?? "";
  const specific = tokenTypeOf(value);
  if (specific) return specific;
  if (!keyHoldsSecret(key, value, p.strict === true)) return null;
  const type = classifyKey(key);
  if (value.length < (MIN_LENGTH[type] ?? DEFAULT_MIN_LENGTH)) return null;
  // Where a secret is kept, not the secret: looked at only for what is left, and the line before only
  // for the `secret:` of an ARN (every assignment candidate paid for that search before).
  if (isSecretReference(value) || (key.toLowerCase() === "secret" && SECRET_ARN_BEFORE.test(lineBefore(text, at, at)))) return null;
  if (type !== "password" && isPathLike(value)) return null; // GOOGLE_APPLICATION_CREDENTIALS=/etc/key.json
  const separator = /(=>|:=|=|:)[ \t]*["'\\]*$/.exec(prefix)?.[1] ?? "=";
  const quoted = /["']$/.test(prefix);
  // Searched within the 200 chars it keeps: on a one-line text a search to the line's end is a
  // search to the text's end, for every candidate (quadratic on a minified JSON).
  const ahead = text.slice(after, after + 200);
  const lineEnd = ahead.indexOf("\n");
  const rest = lineEnd === -1 ? ahead : ahead.slice(0, lineEnd);
  // `a = b` (code) rather than `a=b` (env files, connection and query strings)
  const spaced = /[ \t](?:=>|:=|=|:)[ \t]+["'\\]*$/.test(prefix);
  if (isPlaceholderValue(value, { key, quoted, separator, spaced, after: rest })) return null;
  return type;
}

/**
 * A file path, not a key: `/etc/app/key.json`, `~/creds`, `./tls.key`, `C:\keys\a.pfx`,
 * `reports/q1.csv`. A base64 value can start with `/` too; its segments look generated.
 */
function isPathLike(value: string): boolean {
  if (
    /^(?:[\w.-]+\/)*[\w.-]+\.(?:json|ya?ml|pem|key|p12|pfx|crt|cer|jks|txt|ini|cfg|conf|env|toml|csv|tsv|log|xml|html?|pdf|zip|gz|tar|png|jpe?g|svg|md)$/i.test(
      value,
    )
  )
    return true;
  if (!/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value) || /[+=]/.test(value)) return false;
  return !value.split(/[/\\]/).some((seg) => seg.length >= 16 && looksGenerated(seg));
}

/** Keys named like a secret that hold something else: pagination cursors and the shell's working directory. */
const NOT_SECRET_KEY = /(?:page|next|continuation|cursor|sync|resume|pagination)[_.-]?token$/i;
/**
 * `*_KEY` names whose values are identifiers, not keys: a signing key's public fingerprint
 * (`ENV GPG_KEY` in the official language images), cache, partition, routing and sort keys.
 */
const NOT_SECRET_ENV_KEY =
  /(?:^|_)(?:GPG|PGP|CACHE|PARTITION|ROUTING|SORT|PRIMARY|FOREIGN|HASH|RANGE|SHARD|IDEMPOTENCY|DEDUP(?:LICATION)?|LOOKUP|INDEX|UNIQUE|GROUP|MESSAGE|EVENT|OBJECT)_KEY$/;

/** Where a secret is kept, not the secret: a Secrets Manager ARN, a Secret Manager resource name. */
function isSecretReference(value: string): boolean {
  return /^arn:aws[\w-]*:secretsmanager:/.test(value) || /^projects\/[\w.-]+\/secrets\/[\w.-]+(?:\/versions\/[\w.-]+)?$/.test(value);
}
/** The `secret:` inside an ARN (`arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf`). */
const SECRET_ARN_BEFORE = /\barn:aws[\w-]*:secretsmanager:[\w-]*:\d*:$/;

function keyHoldsSecret(key: string, value: string, strict: boolean): boolean {
  if (NOT_SECRET_KEY.test(key)) return false;
  if (/^(?:pwd|oldpwd)$/i.test(key) && /^(?:[/~]|[A-Za-z]:\\)/.test(value)) return false;
  // `*_KEY` is also SORT_KEY, PRIMARY_KEY, NEXT_PUBLIC_MAPS_KEY: only generated values count.
  return !strict || (!/PUBLIC|(?:^|_)PUB(?:_|$)/.test(key) && !NOT_SECRET_ENV_KEY.test(key) && looksGenerated(value));
}

/**
 * Long enough and mixing letters with digits (or both cases): how keys and session ids look.
 * Mostly-digit values (`GA1.2.1234567890.1234567890`, an analytics cookie) are counters.
 */
function looksGenerated(value: string): boolean {
  if (value.length < 8 || (value.match(/[A-Za-z]/g)?.length ?? 0) < 3) return false;
  return /\d/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** Whether a cookie header value (`a=b; sid=…`) or one cookie's value carries a session-like value. */
function cookieHoldsSecret(value: string): boolean {
  return value.split(";").some((pair) => {
    const v = pair
      .slice(pair.indexOf("=") + 1)
      .trim()
      .replace(/^"|"$/g, "");
    return looksGenerated(v) && !isPlaceholderValue(v);
  });
}

/** The line holding position `at`, from its start (at most 300 chars back) to `end`. */
function lineBefore(text: string, at: number, end: number): string {
  const from = Math.max(0, at - 300);
  // Within those 300 chars only (see `rest` in accept): an unbounded search back is quadratic on one-line texts.
  const nl = text.slice(from, at).lastIndexOf("\n");
  return text.slice(nl === -1 ? from : from + nl + 1, end);
}

/** Sorts and merges overlapping or touching spans; the earlier finding names the merged one. */
export function mergeFindings(findings: SecretFinding[]): SecretFinding[] {
  const sorted = findings.toSorted((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFinding[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.start <= last.end) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}

/**
 * Replaces each secret value with `[masked:<type>]`, one marker per line of the value, so the
 * masked text keeps the original's line count and numbering (grep and range answers agree).
 */
export function maskSecrets(text: string): { text: string; count: number; types: string[] } {
  return maskFindings(text, findSecrets(text));
}

/** `maskSecrets` with the findings already in hand (one scan serves the label and the mask). */
export function maskFindings(text: string, findings: readonly SecretFinding[]): { text: string; count: number; types: string[] } {
  if (findings.length === 0) return { text, count: 0, types: [] };
  const parts: string[] = [];
  const types: string[] = [];
  let pos = 0;
  for (const f of findings) {
    parts.push(text.slice(pos, f.start), maskSpan(text.slice(f.start, f.end), f.type));
    if (!types.includes(f.type)) types.push(f.type);
    pos = f.end;
  }
  parts.push(text.slice(pos));
  return { text: parts.join(""), count: findings.length, types };
}

function maskSpan(value: string, type: string): string {
  const marker = `[masked:${type}]`;
  if (!value.includes("\n")) {
    // A value inside a JSON string (a key file's body in a command's JSON answer) breaks its lines
    // with escapes (`\\n` once escaped again): keep them whole, so the decoded text keeps its lines too,
    // and their indentation (a YAML block's lines stay inside the block).
    if (!value.includes("\\n")) return marker;
    return value
      .split(/(\\+r\\+n|\\+n)/)
      .map((seg, i) => (i % 2 === 1 || seg.trim() === "" ? seg : /^[ \t]*/.exec(seg)![0] + marker))
      .join("");
  }
  // Keep newlines (and a CR before them) and blank lines; replace each non-blank line segment.
  return value
    .split("\n")
    .map((line) => {
      const cr = line.endsWith("\r") ? "\r" : "";
      const body = cr ? line.slice(0, -1) : line;
      if (body.trim() === "") return line;
      const indent = /^[ \t]*/.exec(body)![0];
      return indent + marker + cr;
    })
    .join("\n");
}
