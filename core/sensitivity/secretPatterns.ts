/**
 * The table of secret shapes, compiled into ONE RE2 expression so a 10 MB text is scanned in
 * a single linear pass (twenty separate passes, or backtracking JS regexes over attacker-made
 * text, would be both slow and a ReDoS risk). Each entry is `prefix` (kept visible, e.g.
 * `Authorization: Bearer `), `value` (the secret, masked) and `suffix` (kept, e.g. a closing
 * quote). Sub-patterns must use only non-capturing groups: the three capturing groups per
 * entry are how a match is mapped back to its entry and its value span.
 *
 * Private keys in PEM armour are not here: their bodies span lines and may be cut off, so
 * `pem.ts` walks them with indexOf instead.
 */
import RE2 from "re2";
import { TOKEN_PATTERNS } from "./tokenPatterns";

export interface SecretPattern {
  /** Finding type, or the default one when `classify` refines it. */
  type: string;
  prefix?: string;
  value: string;
  suffix?: string;
  /**
   * How a context-bound match is judged (tokens with a telling prefix need no judging):
   * `value`: placeholder filter only; `random`: must also look machine-made (a bare
   * `Bearer xyz`); `assignment`: key/value rules, type from the key (placeholders.ts);
   * `cookie`: some cookie value must look generated; `command`: the line before the flag must
   * name one of `commands` (a `-p` is a password only after `mysql`).
   */
  contextual?: "value" | "random" | "assignment" | "cookie" | "command";
  /** Shortest value accepted for a context-bound match. */
  minLength?: number;
  /** `assignment` only: the value must also look generated (keys as loose as `*_KEY`). */
  strict?: boolean;
  /** `command` only: a JS expression the text of the line before the flag must match. */
  commands?: RegExp;
  /** The value must end its line: the last field of a record (`.pgpass`), never one followed by more. */
  endsLine?: boolean;
}

// `\s` differs between RE2 and JS (Unicode spaces); spelling it out keeps both engines equal.
const WS = String.raw`\t\n\f\r `;
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
  String.raw`(?:api|access|private|secret|signing|encryption|master|auth|client|session|webhook|preshared)[_.-]?key`,
  // AWS Secrets Manager's `SecretString` and `SecretBinary`
  String.raw`secret[_.-]?(?:string|binary)`,
  "apikey",
  // a TOTP seed (Bitwarden's `"totp"`): whoever holds it makes the second factor
  "totp",
].join("|");
// `pass` alone only at the start of the key or after a separator: db_pass, smtp-pass, but not bypass.
const KEY = String.raw`(?i:\b(?:${KEY_HEAD}(?:${KEY_WORDS})|(?:${KEY_HEAD}[_.-])?pass))`;
// Key, optional closing quote of a quoted key, separator. Horizontal space only: an empty
// `PASSWORD=` must not swallow the next line as its value.
const ASSIGN = String.raw`${KEY}["']?[ \t]*(?:=>|:=|=|:)[ \t]*`;
// Upper-case environment names ending in `_KEY` (GITHUB_WEBHOOK_KEY, MY_APP_KEY): looser than
// KEY, so their values must also look generated (`SORT_KEY=created_at` is not a secret).
const ENV_ASSIGN = String.raw`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY["']?[ \t]*[=:][ \t]*`;
const DQ_VALUE = String.raw`(?:[^"\\\r\n]|\\[^\r\n])*`;
const SQ_VALUE = String.raw`[^'\r\n]*`;
// Unquoted values stop at whitespace, quotes and the punctuation that ends a value in URLs,
// connection strings and code. `<` stops too, so `password=<redacted>` yields nothing.
const BARE_VALUE = String.raw`[^${WS}"'\x60,;&<>(){}\[\]]+`;
// A command-line value: up to whitespace, a quote or a shell operator.
const CLI_VALUE = String.raw`[^${WS}"'\x60;&|<>]+`;
// A header value inside a line, a quoted string or an escaped JSON string.
const HEADER_VALUE = String.raw`[^\r\n"'\x60\\]`;

/** Order matters only between entries that can match at the same position (first wins). */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  ...TOKEN_PATTERNS,
  // Context-bound shapes.
  { type: "azure_account_key", prefix: String.raw`(?i:\b(?:AccountKey|SharedAccessKey)=)`, value: String.raw`[A-Za-z0-9+/]{20,}={0,2}` },
  { type: "azure_sas_signature", prefix: String.raw`\bsig=`, value: String.raw`[A-Za-z0-9%+/_-]{16,}(?:=|%3[Dd]){0,2}` },
  { type: "signed_url_signature", prefix: String.raw`(?i:\bX-(?:Amz|Goog)-Signature=)`, value: String.raw`[A-Fa-f0-9]{32,}` },
  // The signature of an AWS SigV4 Authorization header (the credential scope before it is masked as the header's value).
  { type: "aws_signature", prefix: String.raw`,[ \t]*Signature=`, value: String.raw`[a-f0-9]{64}\b` },
  // `.netrc`: `machine host`, then `login user` and `password secret`, on one line or on lines of
  // their own as `heroku login` writes it (`default` stands for every host). Only netrc's own
  // tokens may come between, so prose about a "machine" and a "password" is not a match.
  {
    type: "password",
    prefix: String.raw`(?:\bmachine[ \t]+[^${WS}]+|\bdefault)(?:[${WS}]+(?:login|account|port)[ \t]+[^${WS}]+){0,4}[${WS}]+password[ \t]+`,
    value: CLI_VALUE,
    contextual: "value",
    minLength: 3,
  },
  // `.pgpass`: `host:port:database:user:password`, one per line (a `\:` in the password is a colon).
  // The host is 3+ characters and the port 2+ digits, so MAC and IPv6 addresses do not match.
  {
    type: "password",
    prefix: String.raw`(?:^|\n)[ \t]*(?:\*|[A-Za-z0-9._-]{3,}):(?:\d{2,5}|\*):[^:${WS}]+:[^:${WS}]+:`,
    value: String.raw`(?:[^:\r\n\\]|\\.)+`,
    contextual: "value",
    minLength: 3,
    endsLine: true,
  },
  // Environment entries as name/value pairs: a pod spec's `- name: DB_PASSWORD` / `value: …`
  // (kubectl sorts name first), an ECS task definition's or Postman's `{"name"|"key": …, "value": …}`,
  // CloudFormation's ParameterKey/ParameterValue. The name says what the value is.
  {
    type: "secret",
    prefix: String.raw`\bname:[ \t]*["']?${KEY}["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?`,
    value: String.raw`[^"'\r\n]+`,
    suffix: `["']?`,
    contextual: "value",
    minLength: 3,
  },
  {
    type: "secret",
    prefix: String.raw`"(?:name|Name|key|Key|ParameterKey)"[ \t]*:[ \t]*"${KEY}"[ \t]*,[${WS}]*"(?:value|Value|ParameterValue)"[ \t]*:[ \t]*"`,
    value: DQ_VALUE,
    suffix: `"`,
    contextual: "value",
    minLength: 3,
  },
  // AWS SSM (`get-parameter --with-decryption`): a SecureString's value.
  {
    type: "secret",
    prefix: String.raw`"Type"[ \t]*:[ \t]*"SecureString"[ \t]*,[${WS}]*"Value"[ \t]*:[ \t]*"`,
    value: DQ_VALUE,
    suffix: `"`,
    contextual: "value",
    minLength: 1,
  },
  // Key/value tables (`vault kv get`): a line that is a secret-named key, two or more spaces, one value.
  {
    type: "secret",
    prefix: String.raw`(?:^|\n)${KEY}[ \t]{2,}`,
    value: String.raw`[^${WS}]+`,
    contextual: "value",
    minLength: 3,
    endsLine: true,
  },
  // SQL that sets a password: MySQL's `IDENTIFIED [WITH plugin] BY '…'` and `SET PASSWORD … = '…'`,
  // PostgreSQL's `[ENCRYPTED] PASSWORD '…'` (CREATE/ALTER ROLE or USER).
  {
    type: "password",
    prefix: String.raw`(?i:\bIDENTIFIED(?:[ \t]+WITH[ \t]+[A-Za-z0-9_]+)?[ \t]+BY(?:[ \t]+PASSWORD)?[ \t]+)["']`,
    value: String.raw`[^"'\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 1,
  },
  {
    type: "password",
    prefix: String.raw`(?i:\bSET[ \t]+PASSWORD\b[^=;\r\n]*=[ \t]*(?:PASSWORD\(|OLD_PASSWORD\()?)["']`,
    value: String.raw`[^"'\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 1,
  },
  {
    type: "password",
    prefix: String.raw`(?i:\bPASSWORD[ \t]+)'`,
    value: String.raw`[^'\r\n]+`,
    suffix: `'`,
    contextual: "value",
    minLength: 1,
  },
  // PowerShell: a literal turned into a SecureString is a password in the script.
  {
    type: "password",
    prefix: String.raw`(?i:\bConvertTo-SecureString(?:[ \t]+-String)?[ \t]+)["']`,
    value: String.raw`[^"'\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 1,
  },
  // A password piped into a login: `echo pw | docker login -u me --password-stdin` (CI scripts), `echo user:pw | chpasswd`.
  {
    type: "password",
    prefix: String.raw`\b(?:echo|printf)[ \t]+(?:-[ne][ \t]+)?(?:["']?%s(?:\\n)?["']?[ \t]+)?["']?`,
    value: String.raw`[^${WS}"'|;&]+`,
    suffix: String.raw`["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm)(?:[ \t]+registry)?[ \t]+login\b[^\r\n]*--password-stdin|cosign[ \t]+login\b[^\r\n]*--password-stdin)`,
    contextual: "value",
    minLength: 3,
  },
  {
    type: "password",
    prefix: String.raw`\b(?:echo|printf)[ \t]+(?:-[ne][ \t]+)?["']?[A-Za-z0-9._-]+:`,
    value: String.raw`[^${WS}"'|;&]+`,
    suffix: String.raw`["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b`,
    contextual: "value",
    minLength: 3,
  },
  // `htpasswd -b file user password` (batch mode takes the password on the command line).
  {
    type: "password",
    prefix: String.raw`\bhtpasswd[ \t]+-[A-Za-z]*b[A-Za-z]*[ \t]+[^${WS}]+[ \t]+[^${WS}]+[ \t]+`,
    value: CLI_VALUE,
    contextual: "value",
    minLength: 1,
  },
  // Gradle's Groovy DSL: `storePassword 'x'`, `keyPassword "x"` (no `=`).
  {
    type: "password",
    prefix: String.raw`\b(?:store|key)Password[ \t]+["']`,
    value: String.raw`[^"'\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 3,
  },
  // `terraform output -json`: a sensitive output's value is printed in clear (keys come sorted).
  {
    type: "secret",
    prefix: String.raw`"sensitive"[ \t]*:[ \t]*true[ \t]*,[${WS}]*"type"[ \t]*:[ \t]*"[a-z]+"[ \t]*,[${WS}]*"value"[ \t]*:[ \t]*"`,
    value: DQ_VALUE,
    suffix: `"`,
    contextual: "value",
    minLength: 1,
  },
  // 1Password's CLI (`op item get --format json`): a field of type CONCEALED holds a password or key.
  {
    type: "password",
    prefix: String.raw`"type"[ \t]*:[ \t]*"CONCEALED"[^{}]*?"value"[ \t]*:[ \t]*"`,
    value: DQ_VALUE,
    suffix: `"`,
    contextual: "value",
    minLength: 1,
  },
  // PHP constants: wp-config.php's `define('DB_PASSWORD', '…')` and its `AUTH_KEY`/`*_SALT` keys.
  {
    type: "secret",
    prefix: String.raw`\bdefine\([ \t]*['"][A-Z0-9_]*(?:PASSWORD|PASS|_KEY|_SALT|SECRET|TOKEN)['"][ \t]*,[ \t]*['"]`,
    value: String.raw`[^'"\r\n]+`,
    suffix: `['"]`,
    contextual: "value",
    minLength: 3,
  },
  // `.npmrc`'s legacy `_auth=` (base64 of `user:password`); `_authToken` and `_password` are assignments.
  { type: "npm_auth", prefix: String.raw`\b_auth[ \t]*=[ \t]*["']?`, value: String.raw`[A-Za-z0-9+/]{8,}={0,2}` },
  // XML elements: Maven's settings.xml `<password>`, `<passphrase>`, config files' `<apiKey>`, `<clientSecret>`.
  {
    type: "password",
    prefix: String.raw`(?i:<(?:[A-Za-z0-9_.-]+:)?[A-Za-z0-9_.-]*?(?:password|passwd|passphrase)(?:[ \t][^<>\r\n]*)?>)`,
    value: String.raw`[^<\r\n]+`,
    suffix: "</",
    contextual: "value",
    minLength: 3,
  },
  {
    type: "secret",
    prefix: String.raw`(?i:<(?:[A-Za-z0-9_.-]+:)?[A-Za-z0-9_.-]*?(?:secret|api[_.-]?key|private[_.-]?key|access[_.-]?key|auth[_.-]?token|access[_.-]?token)(?:[ \t][^<>\r\n]*)?>)`,
    value: String.raw`[^<\r\n]+`,
    suffix: "</",
    contextual: "random",
    minLength: 8,
  },
  { type: "docker_config_auth", prefix: String.raw`"auth"[ \t]*:[ \t]*"`, value: String.raw`[A-Za-z0-9+/]{12,}={0,2}`, suffix: `"` },
  // `[` and `]` are never raw in userinfo (RFC 3986), and leaving them out keeps
  // `https://[masked:github_token]@host` from matching again.
  {
    type: "url_credentials",
    prefix: String.raw`\b[A-Za-z][A-Za-z0-9+.-]*://[^${WS}:/@"'<>\[\]]*:`,
    value: String.raw`[^${WS}/@"'<>\[\]]+`,
    suffix: "@",
    contextual: "value",
    minLength: 3,
  },
  {
    type: "authorization_header",
    prefix: String.raw`(?i:\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|negotiate|apikey|api-key|sso-key|key|aws4-hmac-sha256)[ \t]+)?)`,
    value: String.raw`[^${WS}"'\x60,;]+`,
    contextual: "value",
    minLength: 8,
  },
  { type: "bearer_token", prefix: String.raw`\b[Bb]earer[ \t]+`, value: String.raw`[A-Za-z0-9._~+/-]{16,}=*`, contextual: "random" },
  // Cookies: a response sets one (its attributes stay visible); a request sends them all.
  {
    type: "cookie",
    prefix: String.raw`(?i:\bset-cookie["']?[ \t]*:[ \t]*["']?[^${WS}=;"'\\]+=)`,
    value: String.raw`[^;${WS}"'\x60\\]+`,
    contextual: "cookie",
  },
  {
    type: "cookie",
    prefix: String.raw`(?i:\bcookie["']?[ \t]*:[ \t]*["']?)`,
    value: String.raw`${HEADER_VALUE}*=${HEADER_VALUE}+`,
    contextual: "cookie",
  },
  // CLI flags with a separate value: `--password hunter2`, `--db-password "abc"`, `--cookie "sid=…"`.
  {
    type: "password",
    prefix: String.raw`(?i:--(?:[a-z0-9]+-)*(?:password|passwd|pass|pwd|token|secret|api-?key|cookie|oauth2-bearer)[ \t]+"?)`,
    value: CLI_VALUE,
    suffix: `"?`,
    contextual: "value",
    minLength: 3,
  },
  // `curl -u user:pass`, `--user user:pass`: the part after the colon.
  {
    type: "password",
    prefix: String.raw`[ \t](?:-u|--user)[ \t]+["']?[^${WS}:"']+:`,
    value: String.raw`[^${WS}"']+`,
    contextual: "value",
    minLength: 3,
  },
  // keytool and openssl: `-storepass pw`, `-passin pass:pw`.
  {
    type: "password",
    prefix: String.raw`[ \t]-(?:(?:src|dest)?storepass|(?:src|dest)?keypass|pass(?:in|out)[ \t]+pass:)[ \t]*`,
    value: CLI_VALUE,
    contextual: "value",
    minLength: 3,
  },
  // `mysql -pS3cret` (attached: `-p name` prompts and names a database).
  {
    type: "password",
    prefix: String.raw`[ \t]-p["']?`,
    value: CLI_VALUE,
    suffix: `["']?`,
    contextual: "command",
    minLength: 3,
    commands: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mysqlsh|mariadb(?:-dump|-admin)?|sshpass)\b/,
  },
  // Spaced short flags: `sshpass -p pw`, `docker login -p pw`, `redis-cli -a pw`, `sqlcmd -P pw`, `ldapsearch -w pw`.
  {
    type: "password",
    prefix: String.raw`[ \t]-[paPw][ \t]+["']?`,
    value: CLI_VALUE,
    suffix: `["']?`,
    contextual: "command",
    minLength: 3,
    commands:
      /\b(?:sshpass(?:[ \t]+-[a-oq-z]\S*)*[ \t]+-p|(?:docker|podman|buildah|skopeo|helm(?:[ \t]+registry)?)[ \t]+login\b.*[ \t]-p|mongo(?:sh|dump|restore|export|import)?\b.*[ \t]-p|redis-cli\b.*[ \t]-a|(?:sqlcmd|bcp)\b.*[ \t]-P|ldap(?:search|add|modify|delete|passwd|whoami)\b.*[ \t]-w)$/,
  },
  // Assignments: JSON held inside a JSON string (`{\"password\": \"x\"}`, common in tool
  // results), then double-quoted, single-quoted and bare. Type comes from the key (classifyKey).
  {
    type: "secret",
    prefix: String.raw`${KEY}\\"[ \t]*(?:=>|:=|=|:)[ \t]*\\"`,
    value: String.raw`[^"\\\r\n]*`,
    suffix: String.raw`(?:\\")?`,
    contextual: "assignment",
  },
  { type: "secret", prefix: `${ASSIGN}"`, value: DQ_VALUE, suffix: `"?`, contextual: "assignment" },
  { type: "secret", prefix: `${ASSIGN}'`, value: SQ_VALUE, suffix: `'?`, contextual: "assignment" },
  { type: "secret", prefix: ASSIGN, value: BARE_VALUE, contextual: "assignment" },
  { type: "api_key", prefix: `${ENV_ASSIGN}"`, value: DQ_VALUE, suffix: `"?`, contextual: "assignment", strict: true },
  { type: "api_key", prefix: `${ENV_ASSIGN}'`, value: SQ_VALUE, suffix: `'?`, contextual: "assignment", strict: true },
  { type: "api_key", prefix: ENV_ASSIGN, value: BARE_VALUE, contextual: "assignment", strict: true },
];

/**
 * The scan expression: every entry as one alternation WITHOUT capturing groups. RE2 pays
 * ~10x per match to extract ninety submatches from a big program, so the scan only finds
 * where a candidate is, and `matchEntry` splits the short candidate afterwards.
 */
export const SCAN_SOURCE = SECRET_PATTERNS.map((p) => `(?:${p.prefix ?? ""}${p.value}${p.suffix ?? ""})`).join("|");

/** Compiles the scan expression; `g` so exec walks the text with lastIndex. */
export function compileScan(): RE2 {
  return new RE2(SCAN_SOURCE, "g");
}

/**
 * Per-entry JS expressions over the candidate only (a short, already-bounded string, and
 * linear patterns, so backtracking is harmless). `(?i:…)` groups become the `i` flag: entries
 * that use one are written so the rest of the entry is case-insensitive anyway.
 */
function toJs(src: string, sticky: boolean): RegExp {
  const insensitive = src.includes("(?i:");
  return new RegExp(src.replaceAll("(?i:", "(?:"), (sticky ? "y" : "") + (insensitive ? "i" : ""));
}
const ENTRY_RES = SECRET_PATTERNS.map((p) => toJs(`(${p.prefix ?? ""})(${p.value})(${p.suffix ?? ""})`, true));

/** Which entry produced a scan candidate starting at `candidate[0]`, with its three parts. */
export function matchEntry(candidate: string): { entry: number; prefix: string; value: string; suffix: string } | null {
  for (let i = 0; i < ENTRY_RES.length; i++) {
    const re = ENTRY_RES[i]!;
    re.lastIndex = 0;
    const m = re.exec(candidate);
    if (m) return { entry: i, prefix: m[1]!, value: m[2]!, suffix: m[3]! };
  }
  return null;
}

/** Only the self-identifying tokens, anchored, to name what a key=value pair actually holds. */
const TOKEN_ENTRIES = SECRET_PATTERNS.filter((p) => !p.prefix && !p.contextual);
const TOKEN_RES = TOKEN_ENTRIES.map((p) => toJs(`^(?:${p.value})$`, false));

/** The specific token type of `value` (e.g. `github_token`), or null when it has no telling shape. */
export function tokenTypeOf(value: string): string | null {
  if (value.length > 4096) return null;
  const i = TOKEN_RES.findIndex((re) => re.test(value));
  return i >= 0 ? TOKEN_ENTRIES[i]!.type : null;
}
/** Finding type for a sensitive key: `DB_PASSWORD` → password, `GITHUB_TOKEN` → token. */
export function classifyKey(key: string): string {
  const k = key.toLowerCase();
  if (/secret[_.-]?access[_.-]?key/.test(k)) return "aws_secret_access_key";
  if (/aws[_.-]?session[_.-]?token|^sessiontoken$/.test(k)) return "aws_session_token";
  if (/pass|pwd/.test(k)) return "password";
  if (/cred/.test(k)) return "credentials";
  if (k.endsWith("token")) return "token";
  if (/secret[_.-]?key$/.test(k)) return "secret";
  if (k.endsWith("key")) return k.includes("private") ? "private_key" : "api_key";
  return "secret";
}
