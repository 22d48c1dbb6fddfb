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
import { FILE_PATTERNS } from "./filePatterns";
import {
  WS,
  KEY,
  ASSIGN,
  ENV_ASSIGN,
  LINE_ASSIGN,
  ENV_LINE_ASSIGN,
  LINE_VALUE,
  LINE_END,
  DQ_VALUE,
  SQ_VALUE,
  BARE_VALUE,
  CLI_VALUE,
  HEADER_VALUE,
} from "./patternParts";
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
  /**
   * `assignment` only: the whole line is the assignment (`.env`, shell), so the value runs to the
   * line's end. When it is judged no secret, the entry right after it (the same key with a value
   * cut at punctuation) judges the same key again.
   */
  wholeLine?: boolean;
  /**
   * Which scan expression holds the entry (see SCAN_GROUPS): `flags` for command-line flags, the
   * rest in `main`.
   */
  scan?: ScanGroup;
}

/**
 * The table is scanned by two RE2 expressions, not one: RE2 builds its DFA within a fixed memory
 * (8 MB, not settable from Node), and one expression of every entry outgrew it, after which RE2
 * runs its NFA: 3.5 s instead of 0.2 s for the bench's 4.6 MB one-line JSON (`npm run bench --
 * secrets`). Command-line flags (`--password x`, `-p 'x'`, `aws configure set …`) are few and start
 * with `-` or `aws`, so their own expression is small and its pass cheap.
 */
export type ScanGroup = "main" | "flags";
export const SCAN_GROUPS: readonly ScanGroup[] = ["main", "flags"];

/**
 * A command-line flag's value as the shell reads it: quoted, the whole quoted text (`-p 'a&b;c'`,
 * `--password "x y"`); bare, up to a blank, a quote or a shell operator. `flag` is the prefix up to
 * the value; the quotes are kept visible.
 */
function cliFlag(entry: Omit<SecretPattern, "prefix" | "value" | "suffix"> & { flag: string; bare?: string }): SecretPattern[] {
  const { flag, bare = CLI_VALUE, ...rest } = entry;
  return [
    { ...rest, scan: "flags", prefix: `${flag}"`, value: String.raw`[^"\r\n]+`, suffix: `"` },
    { ...rest, scan: "flags", prefix: `${flag}'`, value: String.raw`[^'\r\n]+`, suffix: `'` },
    { ...rest, scan: "flags", prefix: flag, value: bare },
  ];
}

// A bare value that cannot begin an assignment's operator: `aws_secret_access_key = x` is the
// assignment entries' to judge, and the scan tries only the first entry that matches at a place.
const CLI_VALUE_NOT_ASSIGNED = String.raw`[^${WS}"'\x60;&|<>=:](?:${CLI_VALUE})?`;

/** Order matters only between entries that can match at the same position (first wins). */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  ...TOKEN_PATTERNS,
  // Context-bound shapes.
  { type: "azure_account_key", prefix: String.raw`(?i:\b(?:AccountKey|SharedAccessKey)=)`, value: String.raw`[A-Za-z0-9+/]{20,}={0,2}` },
  { type: "azure_sas_signature", prefix: String.raw`\bsig=`, value: String.raw`[A-Za-z0-9%+/_-]{16,}(?:=|%3[Dd]){0,2}` },
  { type: "signed_url_signature", prefix: String.raw`(?i:\bX-(?:Amz|Goog)-Signature=)`, value: String.raw`[A-Fa-f0-9]{32,}` },
  // The signature of an AWS SigV4 Authorization header (the credential scope before it is masked as the header's value).
  { type: "aws_signature", prefix: String.raw`,[ \t]*Signature=`, value: String.raw`[a-f0-9]{64}\b` },
  ...FILE_PATTERNS,
  { type: "docker_config_auth", prefix: String.raw`"auth"[ \t]*:[ \t]*"`, value: String.raw`[A-Za-z0-9+/]{12,}={0,2}`, suffix: `"` },
  // `[` and `]` are never raw in userinfo (RFC 3986), and leaving them out keeps
  // `https://[masked:github_token]@host` from matching again.
  {
    type: "url_credentials",
    prefix: String.raw`\b[A-Za-z][A-Za-z0-9+.-]*://[^${WS}:/@"'<>\[\]]*:`,
    // An unencoded `@` in the password (`app:Ky2n@7rQ9@db`): up to the last `@` before the host.
    value: String.raw`[^${WS}/@"'<>\[\]]+(?:@[^${WS}/@"'<>\[\]?#]+)*`,
    suffix: "@",
    contextual: "value",
    minLength: 3,
  },
  {
    type: "authorization_header",
    prefix: String.raw`(?i:\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|negotiate|apikey|api-key|sso-key|key|aws4-hmac-sha256|ssws|oauth|bot|splunk|geniekey)[ \t]+)?)`,
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
  // CLI flags with a separate value: `--password hunter2`, `--db-password "a&b"`, `--cookie "sid=…"`.
  ...cliFlag({
    type: "password",
    flag: String.raw`(?i:--(?:[a-z0-9]+-)*(?:password|passwd|pass|pwd|token|secret|api-?key|cookie|oauth2-bearer)[ \t]+)`,
    contextual: "value",
    minLength: 3,
  }),
  // A key flag names a file as often as a key (`--private-key ./id.pem`): only a generated value is
  // one (`--aws-secret-access-key wJalr…`, `--secret-key …`).
  ...cliFlag({
    type: "secret",
    flag: String.raw`(?i:--(?:[a-z0-9]+-)*(?:access|secret|private|signing|encryption|master|auth|client|session|account|storage)-key[ \t]+)`,
    bare: CLI_VALUE_NOT_ASSIGNED,
    contextual: "random",
    minLength: 16,
  }),
  // `aws configure set aws_secret_access_key …` and a credentials line written with a blank
  // (`aws_secret_access_key wJalr…`): a secret-named AWS setting, then a generated value.
  ...cliFlag({
    type: "aws_secret_access_key",
    flag: String.raw`(?i:\b(?:aws[ \t]+configure[ \t]+set[ \t]+(?:--profile[ \t]+[A-Za-z0-9_.-]+[ \t]+)?(?:[A-Za-z0-9_-]+\.)?)?aws_(?:secret_access_key|session_token|security_token)[ \t]+)`,
    bare: CLI_VALUE_NOT_ASSIGNED,
    contextual: "random",
    minLength: 16,
  }),
  // `curl -u user:pass`, `-uuser:pass`, `--user user:pass`, `--user=user:pass`: the part after the colon.
  {
    type: "password",
    prefix: String.raw`[ \t](?:-u[ \t]*|--user[ \t]+|--user=)["']?[^${WS}:"'-][^${WS}:"']*:`,
    value: String.raw`[^${WS}"']+`,
    contextual: "value",
    minLength: 3,
    scan: "flags",
  },
  // keytool and openssl: `-storepass pw`, `-passin pass:pw`.
  ...cliFlag({
    type: "password",
    flag: String.raw`[ \t]-(?:(?:src|dest)?storepass|(?:src|dest)?keypass|pass(?:in|out)[ \t]+pass:)[ \t]*`,
    contextual: "value",
    minLength: 3,
  }),
  // `mysql -pS3cret` (attached: `-p name` prompts and names a database).
  ...cliFlag({
    type: "password",
    flag: String.raw`[ \t]-p`,
    contextual: "command",
    minLength: 3,
    commands: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mysqlpump|mysqlsh|mariadb(?:-dump|-admin)?|sshpass)\b/,
  }),
  // Spaced short flags: `sshpass -p pw`, `docker login -p pw`, `redis-cli -a pw`, `sqlcmd -P pw`, `ldapsearch -w pw`.
  ...cliFlag({
    type: "password",
    flag: String.raw`[ \t]-[paPw][ \t]+`,
    contextual: "command",
    minLength: 3,
    commands:
      /\b(?:sshpass(?:[ \t]+-[a-oq-z]\S*)*[ \t]+-p|(?:docker|podman|buildah|skopeo|helm(?:[ \t]+registry)?)[ \t]+login\b.*[ \t]-p|mongo(?:sh|dump|restore|export|import)?\b.*[ \t]-p|redis-cli\b.*[ \t]-a|(?:sqlcmd|bcp)\b.*[ \t]-P|ldap(?:search|add|modify|delete|passwd|whoami)\b.*[ \t]-w)$/,
  }),
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
  // A line that is one assignment (`DB_PASSWORD=Tr0ub4dor&3x`) before the same key inside a line
  // (`?password=x&user=y`), whose value stops at `&`, `;` and brackets: see `wholeLine`.
  { type: "secret", prefix: LINE_ASSIGN, value: LINE_VALUE, suffix: LINE_END, contextual: "assignment", wholeLine: true },
  { type: "secret", prefix: ASSIGN, value: BARE_VALUE, contextual: "assignment" },
  { type: "api_key", prefix: `${ENV_ASSIGN}"`, value: DQ_VALUE, suffix: `"?`, contextual: "assignment", strict: true },
  { type: "api_key", prefix: `${ENV_ASSIGN}'`, value: SQ_VALUE, suffix: `'?`, contextual: "assignment", strict: true },
  {
    type: "api_key",
    prefix: ENV_LINE_ASSIGN,
    value: LINE_VALUE,
    suffix: LINE_END,
    contextual: "assignment",
    strict: true,
    wholeLine: true,
  },
  { type: "api_key", prefix: ENV_ASSIGN, value: BARE_VALUE, contextual: "assignment", strict: true },
];

const groupOf = (p: SecretPattern): ScanGroup => p.scan ?? "main";

/**
 * A scan expression: the group's entries as one alternation WITHOUT capturing groups. RE2 pays
 * ~10x per match to extract ninety submatches from a big program, so the scan only finds
 * where a candidate is, and `matchEntry` splits the short candidate afterwards.
 */
export function scanSource(group: ScanGroup): string {
  return SECRET_PATTERNS.filter((p) => groupOf(p) === group)
    .map((p) => `(?:${p.prefix ?? ""}${p.value}${p.suffix ?? ""})`)
    .join("|");
}

/** Compiles a group's scan expression; `g` so exec walks the text with lastIndex. */
export function compileScan(group: ScanGroup = "main"): RE2 {
  return new RE2(scanSource(group), "g");
}

/**
 * Per-entry JS expressions over the candidate only (a short, already-bounded string, and
 * linear patterns, so backtracking is harmless). `(?i:…)` groups become the `i` flag: entries
 * that use one are written so the rest of the entry is case-insensitive anyway.
 */
function toJs(src: string, sticky: boolean): RegExp {
  const insensitive = src.includes("(?i:");
  // RE2's multi-line anchors as JS lookarounds (a JS flag would change every entry's `^` and `$`).
  const js = src.replaceAll("(?i:", "(?:").replaceAll("(?m:^)", "(?<![^\\n])").replaceAll("(?m:$)", "(?![^\\n])");
  return new RegExp(js, (sticky ? "y" : "") + (insensitive ? "i" : ""));
}
const WHOLE_LINE = SECRET_PATTERNS.map((p) => p.wholeLine === true);
const GROUP = SECRET_PATTERNS.map(groupOf);
const ENTRY_RES = SECRET_PATTERNS.map((p) => toJs(`(${p.prefix ?? ""})(${p.value})(${p.suffix ?? ""})`, true));

/**
 * Which entry of `group`'s expression produced a scan candidate starting at `candidate[0]` (trying
 * entries from `from` on), with its three parts. `length`: the scan's match length, when known and
 * the candidate starts a line; else whole-line entries are not tried (the candidate's slice hides
 * where its lines start and end, so such an entry must span exactly what the scan matched).
 */
export function matchEntry(
  candidate: string,
  from = 0,
  length?: number,
  group: ScanGroup = "main",
): { entry: number; prefix: string; value: string; suffix: string } | null {
  for (let i = from; i < ENTRY_RES.length; i++) {
    if (GROUP[i] !== group || (length === undefined && WHOLE_LINE[i])) continue;
    const re = ENTRY_RES[i]!;
    re.lastIndex = 0;
    const m = re.exec(candidate);
    if (m && !(WHOLE_LINE[i] && m[0].length !== length)) {
      return { entry: i, prefix: m[1]!, value: m[2]!, suffix: m[3]! };
    }
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
const SECRET_NAME = new RegExp(`^${KEY.replaceAll("(?i:", "(?:")}$`, "i");
/** Whether `name` as a whole is a key the assignment entries treat as secret (`password`, `api_key`, `DB_PASS`). */
export function isSecretKeyName(name: string): boolean {
  return name.length <= 200 && SECRET_NAME.test(name);
}
/** The entry that judges `name="value"` (the delimited tables' fields are judged as it). */
export const QUOTED_ASSIGNMENT = SECRET_PATTERNS.findIndex((p) => p.prefix === `${ASSIGN}"`);
/** The same for an upper-case `*_KEY` name, whose value must also look generated. */
export const QUOTED_ENV_ASSIGNMENT = SECRET_PATTERNS.findIndex((p) => p.prefix === `${ENV_ASSIGN}"`);
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
