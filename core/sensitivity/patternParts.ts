/**
 * Regex parts shared by the tables of secret shapes (secretPatterns.ts, filePatterns.ts): RE2
 * syntax with only non-capturing groups, and no counted repetition that can start at every
 * word (the combined DFA would outgrow RE2's memory on identifier-dense text: see the secrets bench).
 */
// `\s` differs between RE2 and JS (Unicode spaces); spelling it out keeps both engines equal.
export const WS = String.raw`\t\n\f\r `;
// Identifier characters that can precede a sensitive word in a key: DB_PASSWORD, x-api-key, app.secret.
const KEY_HEAD = String.raw`[A-Za-z0-9_.-]*?`;
/** Key words whose value is a secret when the key ENDS with them (so `token_count` is not). */
const KEY_WORDS = [
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "secret",
  "token",
  "credentials?",
  "creds",
  String.raw`secret[_.-]?key[_.-]?base`,
  String.raw`(?:api|access|private|secret|signing|encryption|master|auth|client|session|webhook|preshared|subscription)[_.-]?key`,
  // AWS Secrets Manager's `SecretString` and `SecretBinary`
  String.raw`secret[_.-]?(?:string|binary)`,
  "apikey",
  // a TOTP seed (Bitwarden's `"totp"`): whoever holds it makes the second factor
  "totp",
].join("|");
// `pass` alone only at the start of the key or after a separator: db_pass, smtp-pass, but not bypass.
export const KEY = String.raw`(?i:\b(?:${KEY_HEAD}(?:${KEY_WORDS})|(?:${KEY_HEAD}[_.-])?pass))`;
// Key, optional closing quote of a quoted key, separator. Horizontal space only: an empty
// `PASSWORD=` must not swallow the next line as its value.
// A subscript closes the key too: `app.config['SECRET_KEY'] = …`, `$_ENV["DB_PASSWORD"] = …`.
export const ASSIGN = String.raw`${KEY}["']?\]?[ \t]*(?:=>|:=|=|:)[ \t]*`;
// Upper-case environment names ending in `_KEY` (GITHUB_WEBHOOK_KEY, MY_APP_KEY): looser than
// KEY, so their values must also look generated (`SORT_KEY=created_at` is not a secret).
export const ENV_ASSIGN = String.raw`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY["']?[ \t]*[=:][ \t]*`;
/**
 * A line that is one assignment, as a `.env` file, a shell script or a compose file's
 * `environment:` list writes it: optional indentation, a `file:line:` from grep, a `- ` list item
 * or `export `, then `NAME=` with nothing between name and `=`. Anchored at the line start, so the
 * value that runs to the line's end is scanned once per line (never from every `token=` of a
 * minified line).
 */
const LINE_HEAD = String.raw`(?m:^)[ \t]*(?:[A-Za-z0-9_./~-]+:(?:\d+:)?)?(?:-[ \t]+)?(?:export[ \t]+)?`;
export const LINE_ASSIGN = String.raw`${LINE_HEAD}${KEY}=[ \t]*`;
export const ENV_LINE_ASSIGN = String.raw`${LINE_HEAD}\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY=[ \t]*`;
// Its unquoted value: one run without blanks that reaches the line's end or a ` #comment`
// (`&`, `;` and brackets included: a .env value has no other end). A blank ends it as the shell
// does, and then the line is a command, not an assignment (`PGPASSWORD=… psql -h db`).
export const LINE_VALUE = String.raw`[^${WS}"'\x60][^${WS}]*`;
export const LINE_END = String.raw`(?:[ \t]+#[^\r\n]*)?[ \t]*\r?(?m:$)`;
export const DQ_VALUE = String.raw`(?:[^"\\\r\n]|\\[^\r\n])*`;
export const SQ_VALUE = String.raw`[^'\r\n]*`;
// Unquoted values stop at whitespace, quotes and the punctuation that ends a value in URLs,
// connection strings and code. `<` stops too, so `password=<redacted>` yields nothing.
export const BARE_VALUE = String.raw`[^${WS}"'\x60,;&<>(){}\[\]]+`;
// A command-line value: up to whitespace, a quote or a shell operator.
export const CLI_VALUE = String.raw`[^${WS}"'\x60;&|<>]+`;
// A header value inside a line, a quoted string or an escaped JSON string.
export const HEADER_VALUE = String.raw`[^\r\n"'\x60\\]`;
