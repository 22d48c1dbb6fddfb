/**
 * False-positive filters for values found after a sensitive key (`password=…`, `"token": …`).
 * Key/value patterns are the noisiest detector: config docs, templates and source code are
 * full of keys whose "value" is a placeholder, a reference or an expression. Masking those
 * costs little, but labelling the blob `credential` withholds `full` and encrypts it, so the
 * filters below reject what is clearly not a literal secret. Each rule is listed in the
 * module's tests and in the report.
 */

/** Whole values that mean "no secret here": empty markers, booleans, type names, stand-ins. */
const NON_SECRET_WORDS = new Set([
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "null",
  "nil",
  "none",
  "undefined",
  "empty",
  "n/a",
  "na",
  "required",
  "optional",
  "default",
  "unknown",
  "unset",
  "missing",
  "invalid",
  "valid",
  "string",
  "str",
  "number",
  "int",
  "integer",
  "bool",
  "boolean",
  "any",
  "object",
  "bytes",
  "text",
  "varchar",
  "secretstr",
  "optional[str]",
  "str|none",
  "redacted",
  "removed",
  "hidden",
  "masked",
  "omitted",
  "filtered",
  "censored",
  "sensitive",
  "private",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "pass",
  "pw",
  "token",
  "apikey",
  "api_key",
  "api-key",
  "key",
  "value",
  // `changeme` and friends are published defaults: revealing them tells nobody anything new.
  "changeme",
  "change_me",
  "change-me",
  "changeit",
  "placeholder",
  "example",
  "sample",
  "dummy",
  "todo",
  "tbd",
  "fixme",
  "your_password",
  "yourpassword",
  "your-password",
  "your_token",
  "your-token",
  "your_api_key",
  "your-api-key",
  "yourapikey",
  "mypassword",
  "my_password",
  "my-password",
  "secretpassword",
  "password123",
  "xxx",
  "foo",
  "bar",
  "foobar",
  "test",
  // fetch()'s `credentials` option.
  "include",
  "omit",
  "same-origin",
]);

/** References to a secret stored elsewhere, and templating syntax. */
const REFERENCE_PATTERNS = [
  /^\$(\{|\(|[A-Z_][A-Z0-9_]*$)/, // ${VAR}, $(cmd), ${{ secrets.X }}, $PASSWORD (not `$ecr3t`)
  /^\{\{|^\{%/, // Jinja, Go, Handlebars templates
  /^<[^>]*>?$/, // <password>, <your-token-here>
  /^%\(|^%[A-Z_]+%$/, // %(password)s, %PASSWORD%
  /^\[[^\]]*\]$/, // [redacted], [masked:password]
  /^(arn:aws:(secretsmanager|ssm)|vault:|ref\+|secretref:|op:\/\/|keyvault:)/i, // secret-store references
  /^(process\.env|os\.environ|os\.getenv|import\.meta\.env)\b/,
  /^(your|insert|enter|put|add)([-_ ]|$)|[-_ ]here$|^replace[-_]?me$/i, // YOUR_API_KEY, insert-token-here
];

/** Words that name a secret; an identifier containing one is a variable, not a literal. */
const SECRET_WORDS = /pass|pwd|secret|token|key|cred/i;

/** What the value is assigned to and how it was written, for the context rules. */
export interface ValueContext {
  /** The key, e.g. `DB_PASSWORD` or `x-api-key`. */
  key: string;
  /** Whether the value sat inside quotes. */
  quoted: boolean;
  /** The separator between key and value: `=`, `:`, `=>`, `:=` or a space (CLI flags). */
  separator: string;
  /** Text right after the value (and its closing quote), up to the end of the line. */
  after: string;
  /** Whether the separator had whitespace on both sides (`a = b`, as code writes it; an env file writes `a=b`). */
  spaced?: boolean;
}

/** True when `value` is obviously not a literal secret (placeholder, reference, code). */
export function isPlaceholderValue(value: string, ctx?: ValueContext): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  const lower = v.toLowerCase();
  if (NON_SECRET_WORDS.has(lower)) return true;
  if (REFERENCE_PATTERNS.some((p) => p.test(v))) return true;
  // Masks and fill characters: `***`, `xxxx`, `....`, `XXXX-XXXX`, `•••`, `<<<`.
  if (/^[xX*•·.#_\-\s]+$/.test(v) || /^(.)\1*$/s.test(v)) return true;
  if (ctx && (lower === ctx.key.toLowerCase() || notSecretForKey(v, ctx.key))) return true; // accesskey: "accessKey"
  if (!ctx || ctx.quoted) return false;
  return looksLikeCode(v, ctx);
}

/**
 * Quoted or not, what a weak key word cannot hold as a secret (in source code these are most
 * of the key/value matches): a sentence after `pass` (a test or an audit rule's "pass"
 * message), and a lexer's token name after `token` (`token: "keyword.$0"`, `"delimiter"`),
 * which has no digit and no mixed case, where every generated token has one or the other.
 */
function notSecretForKey(v: string, key: string): boolean {
  if (/(?:^|[_.-])pass$/i.test(key) && (/\S\s+\S/.test(v) || /[\u3040-\u9fff\uac00-\ud7af]/.test(v))) return true;
  if (!/token$/i.test(key)) return false;
  if (/\s/.test(v)) return true; // no token has a space: "Unexpected token %0" is a message
  // `$0`, `$S2`: a lexer's back-references, not a token's digits
  const bare = v.replace(/\$[A-Za-z]*\d+/g, "");
  if (/\d/.test(bare)) return false;
  const mixed = bare.length >= 16 && /[a-z]/.test(bare) && /[A-Z]/.test(bare);
  // Capitalised words run together (`?NonExpressionParenKeyword`) are a name, not random mixed case.
  return !mixed || /^[^A-Za-z0-9]*(?:[A-Z]?[a-z]+)+[^A-Za-z0-9]*$/.test(bare);
}

/**
 * Unquoted values in source code and prose: `password = getpass()`, `token: string`,
 * `password=password`, `Password: enter it below`. A real literal in code is quoted, and a
 * real config value does not run on into more words on the same line.
 */
function looksLikeCode(v: string, ctx: ValueContext): boolean {
  if (/^![A-Za-z]+$/.test(v)) return true; // YAML tags: `Password: !Ref DbPassword`
  if (/^!+[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+/.test(v)) return true; // `const pass = !this.result.ok`
  // An identifier or type followed by code punctuation or an operator: `token: CancellationToken)`,
  // `password: KDFInput,`, `this.token = CancellationToken.None;`, `const pass = thrown !== null`,
  // `DEPTH_PASS: 0x8803;`. After an unspaced `=`, punctuation proves nothing: `Password=secretword;`
  // and `password=hunter&ssl=1` are literals.
  const identifier = /^[A-Za-z_$][\w$.]*$/.test(v) && !/\d/.test(v);
  if (identifier && (ctx.separator.startsWith(":") || ctx.spaced === true) && /^[,;)|&{]/.test(ctx.after)) return true;
  if (identifier && /^[ \t]+(?:[!=]==?|[<>]=?|&&?|\|\|?|[?+*/%-])[ \t]/.test(ctx.after)) return true;
  if (/^(?:new|await|typeof|void|function|async|require|this|yield|import|class)$/.test(v) || v.startsWith("this.")) return true; // `const password = new Uint8Array(…)`
  if (/^0x[0-9a-fA-F]+$/.test(v) && /^[,;)]/.test(ctx.after)) return true;
  const next = ctx.after.charAt(0);
  if (next === "(" || next === "[" || next === "<") return true;
  if (v.toLowerCase() === ctx.key.toLowerCase()) return true; // connect(password=password)
  const dotted = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(v);
  if (dotted && /^[a-z_$]/.test(v) && !/\d/.test(v)) return true; // self.token, settings.db_pw
  // A snake_case or camelCase name holding a secret word is a variable (`token=access_token`);
  // an env-file literal is rarely written that way.
  const snake = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(v);
  const camel = /^[a-z]+([A-Z][a-z0-9]*)+$/.test(v);
  if ((snake || camel) && SECRET_WORDS.test(v)) return true;
  if (ctx.separator.startsWith(":") && /^[ \t]+[^\s#]/.test(ctx.after)) return true; // prose line
  return false;
}

/**
 * A cheap "does this look machine-generated" test for tokens found without a telling prefix
 * (a bare `Bearer xyz`): long, and mixing letters with digits or symbols.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16) return false;
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  const hasUpperAndLower = /[a-z]/.test(value) && /[A-Z]/.test(value);
  // Symbols alone prove nothing (`token-based-authentication`); generated tokens carry digits.
  return hasLetter && (hasDigit || (hasUpperAndLower && value.length >= 24));
}
