/**
 * Secret detection and masking over arbitrary tool output. One RE2 pass (secretPatterns.ts)
 * plus an indexOf walk for private keys (pem.ts); context-bound matches go through the
 * false-positive filters (placeholders.ts). Linear in the text; see the timing test.
 */
import { findPrivateKeys } from "./pem";
import { isPlaceholderValue, looksRandom } from "./placeholders";
import { SECRET_PATTERNS, classifyKey, compileScan, matchEntry, tokenTypeOf, type SecretPattern } from "./secretPatterns";

/** A detected secret: `start`/`end` delimit the secret VALUE (UTF-16 offsets, end exclusive). */
export interface SecretFinding {
  type: string;
  start: number;
  end: number;
}

const SCAN = compileScan();
/** Minimum value length per key class: a 3-char password is real, a 3-char "token" is a flag. */
const MIN_LENGTH: Record<string, number> = { password: 3 };
const DEFAULT_MIN_LENGTH = 8;

/** Every secret value in `text`, sorted by start, overlaps merged. */
export function findSecrets(text: string): SecretFinding[] {
  if (typeof text !== "string" || text.length === 0) return [];
  const found = findPrivateKeys(text);
  SCAN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SCAN.exec(text))) {
    const at = m.index;
    // One extra character so a trailing `\b` sees the same neighbour as in the full text.
    const parts = matchEntry(text.slice(at, at + m[0].length + 1));
    if (!parts) {
      SCAN.lastIndex = at + 1;
      continue;
    }
    const start = at + parts.prefix.length;
    const end = start + parts.value.length;
    const after = end + parts.suffix.length;
    const type = accept(SECRET_PATTERNS[parts.entry]!, parts.prefix, parts.value, text, after);
    if (type) found.push({ type, start, end });
    // A rejected `password: see ghp_…` may still hold a token: rescan from the value.
    SCAN.lastIndex = Math.max(type ? after : start, at + 1);
  }
  return mergeFindings(found);
}

/** The finding's type when the match is a secret, or null when it is a false positive. */
function accept(p: SecretPattern, prefix: string, value: string, text: string, after: number): string | null {
  if (!p.contextual) return p.type;
  if (value.length === 0 || value.length < (p.minLength ?? 1)) return null;
  if (p.contextual !== "assignment") {
    if (isPlaceholderValue(value)) return null;
    const specific = tokenTypeOf(value);
    if (p.contextual === "random" && !specific && !looksRandom(value)) return null;
    return specific ?? p.type;
  }
  if (/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(value)) return null; // pem.ts masks the body, keeps the armour
  const key = /[A-Za-z0-9_.-]*(?=["'\\]*[ \t]*(?:=>|:=|=|:)[ \t]*["'\\]*$)/.exec(prefix)?.[0] ?? "";
  if (/^(pwd|oldpwd)$/i.test(key)) return null; // the shell's working directory, not a password
  const type = classifyKey(key);
  if (value.length < (MIN_LENGTH[type] ?? DEFAULT_MIN_LENGTH)) return null;
  const separator = /(=>|:=|=|:)[ \t]*["'\\]*$/.exec(prefix)?.[1] ?? "=";
  const quoted = /["']$/.test(prefix);
  const lineEnd = text.indexOf("\n", after);
  const rest = text.slice(after, Math.min(lineEnd === -1 ? text.length : lineEnd, after + 200));
  if (isPlaceholderValue(value, { key, quoted, separator, after: rest })) return null;
  return tokenTypeOf(value) ?? type;
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
  const findings = findSecrets(text);
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
  if (!value.includes("\n")) return marker;
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
