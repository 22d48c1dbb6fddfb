/**
 * Private keys outside PEM armour: a JSON Web Key's private members (`jwks.json`, an OIDC
 * provider's signing keys, `{"kty":"EC",…,"d":"…"}`) and the private lines of a PuTTY key file
 * (`.ppk`). Neither has a telling token of its own: the value is plain base64, and only the
 * object or file around it says it is a key, so each is found from its marker with indexOf,
 * like pem.ts, after a literal test of the bytes when the caller holds them.
 */
import RE2 from "re2";
import type { SecretFinding } from "./secrets";

const KTY = new RE2('kty\\\\?"');
const PUTTY = new RE2("PuTTY-User-Key-File-");
const holds = (re: RE2, literal: RegExp, text: string, utf8: Buffer | undefined) =>
  utf8 === undefined ? literal.test(text) : re.test(utf8 as unknown as string);

/** Longest JWK object looked at around its `kty`: an RSA-8192 private JWK is about 6 k chars. */
const MAX_JWK = 16_000;
/**
 * The private members of a JWK (RFC 7518 §6.2.2, §6.3.2, §6.4.1): EC/OKP `d`, RSA `d p q dp dq
 * qi`, and a symmetric key's `k`. Quoted plainly or escaped inside a JSON string (`\"d\"`).
 */
const PRIVATE_MEMBER = /(\\?")(?:d|p|q|dp|dq|qi|k)\1[ \t\r\n]*:[ \t\r\n]*\\?"([A-Za-z0-9_-]{16,})/g;

function findJwkPrivateMembers(text: string, found: SecretFinding[]): void {
  // One forward pass: the last `{` before each `kty` and the first `}` after it are tracked as
  // the scan moves on (a lastIndexOf or indexOf from every `kty` is quadratic on hostile text).
  let open = -1;
  let nextOpen = text.indexOf("{");
  let close = -2;
  let done = 0;
  for (let at = text.indexOf("kty"); at !== -1; at = text.indexOf("kty", Math.max(at + 3, done))) {
    while (nextOpen !== -1 && nextOpen < at) {
      open = nextOpen;
      nextOpen = text.indexOf("{", nextOpen + 1);
    }
    if (close === -2 || (close !== -1 && close < at)) close = text.indexOf("}", at);
    if (close === -1) return;
    // A JWK is a flat object: its members' values are strings and arrays of strings, never objects.
    if (open === -1 || open < done || close - open > MAX_JWK) continue;
    // Each object is read once, JWK or not: a big object full of the word "kty" costs one slice.
    done = close;
    const body = text.slice(open, close);
    if (!/\\?"kty\\?"[ \t\r\n]*:/.test(body)) continue;
    PRIVATE_MEMBER.lastIndex = 0;
    for (let m; (m = PRIVATE_MEMBER.exec(body));) {
      const start = open + m.index + m[0].length - m[2]!.length;
      found.push({ type: "private_key", start, end: start + m[2]!.length });
    }
  }
}

/** `Private-Lines: N` then N base64 lines (encrypted or not, the body is the private key). */
function findPuttyPrivateLines(text: string, found: SecretFinding[]): void {
  const HEADER = /PuTTY-User-Key-File-\d+:/g;
  // The next `Private-Lines:` at or after the header, reused across headers (linear on hostile text).
  let lines = -2;
  for (let m; (m = HEADER.exec(text));) {
    if (lines === -2 || (lines !== -1 && lines < m.index)) lines = text.indexOf("Private-Lines:", m.index);
    if (lines === -1) return;
    const at = lines;
    if (at - m.index > 64_000) continue;
    const n = Number(/^Private-Lines:[ \t]*(\d{1,4})/.exec(text.slice(at, at + 24))?.[1] ?? 0);
    let start = text.indexOf("\n", at);
    if (start === -1 || n === 0) continue;
    start++;
    let end = start;
    for (let i = 0; i < n && end < text.length; i++) {
      const nl = text.indexOf("\n", end);
      const lineEnd = nl === -1 ? text.length : nl;
      if (!/^[A-Za-z0-9+/=]+\r?$/.test(text.slice(end, lineEnd))) break;
      end = nl === -1 ? text.length : nl + 1;
    }
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end > start) found.push({ type: "private_key", start, end });
    HEADER.lastIndex = Math.max(HEADER.lastIndex, end);
  }
}

/** Spans of JWK private members and PuTTY private lines. `utf8`: the text's UTF-8 bytes when ASCII (see scanSubject). */
export function findKeyFiles(text: string, utf8?: Buffer): SecretFinding[] {
  const found: SecretFinding[] = [];
  if (holds(KTY, /kty\\?"/, text, utf8)) findJwkPrivateMembers(text, found);
  if (holds(PUTTY, /PuTTY-User-Key-File-/, text, utf8)) findPuttyPrivateLines(text, found);
  return found;
}
