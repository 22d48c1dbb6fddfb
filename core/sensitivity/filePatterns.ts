/**
 * Secret shapes of the files and command output agents read whole: credential files (`.netrc`,
 * `.pgpass`, `.npmrc`, Maven's settings.xml, wp-config), cloud and infrastructure CLIs (env
 * name/value pairs, SSM, Secrets Manager, vault, Terraform, 1Password), SQL and scripts that set
 * passwords. Context-bound: the file's or command's own syntax says where the secret is.
 * secretPatterns.ts places them in its table, after the signatures and before the URL, header
 * and assignment shapes.
 */
import type { SecretPattern } from "./secretPatterns";
import { WS, KEY, DQ_VALUE, CLI_VALUE } from "./patternParts";

export const FILE_PATTERNS: readonly SecretPattern[] = [
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
    // No blanks: `app.log:3301:ERROR:db:connection refused` (grep's file:line:text) is no record.
    value: String.raw`(?:[^:${WS}\\]|\\[^${WS}])+`,
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
  // Not here, though seen in real output: Dockerfile's `ENV NAME value` (no `=`) and a YAML block
  // scalar (`password: >-`, the value on the next line). Each is one more use of KEY, and with both
  // the scan's DFA outgrew RE2's memory on minified code (4.3 s for 4.6 MB against 0.07):
  // configForms.ts finds them in a pass of its own and has this table judge each one.
  // .NET `<add key="DbPassword" value="…"/>` (web.config, app.config) and an HTML form's
  // `<input name="api_key" value="…">`: the name attribute says what the value is.
  {
    type: "secret",
    prefix: String.raw`(?i:\b(?:key|name)=["']${KEY}["'][ \t]+(?:[a-z-]+=["'][^"'<>\r\n]*["'][ \t]+)*value=["'])`,
    value: String.raw`[^"'<>\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 3,
  },
  // JSON's short `"pw"` key (`pw` alone would be too loose a key word elsewhere).
  {
    type: "password",
    prefix: String.raw`["']pw["'][ \t]*:[ \t]*["']`,
    value: String.raw`[^"'\\\r\n]+`,
    suffix: `["']`,
    contextual: "value",
    minLength: 3,
  },
];
