import { findSecrets } from "./secrets";

/**
 * Text that looks like it holds a secret and does not. Each line documents one decision; the
 * report lists them. Masking these would cost little, but a `credential` label withholds
 * `full` and encrypts the blob, so the detector should not cry wolf on everyday output.
 */
const NOT_SECRETS: [string, string][] = [
  ["empty value", 'password: ""'],
  ["empty env value does not take the next line", "DB_PASSWORD=\nNEXT=value123456"],
  ["counter named like a token", '"token_count": 42, "max_tokens": 4096, "tokens": 17'],
  ["redaction marker", "password=<redacted>"],
  ["bracketed redaction", 'password: "[REDACTED]"'],
  ["env reference", "password: ${PASSWORD}"],
  ["shell reference", "DB_PASSWORD=$DB_PASSWORD_FROM_VAULT"],
  ["CI expression", "token: ${{ secrets.GITHUB_TOKEN }}"],
  ["template", 'api_key = "{{ api_key }}"'],
  ["mask characters", 'password: "********"\ntoken: xxxxxxxxxxxx'],
  ["placeholder word", "password: changeme\napi_key: YOUR_API_KEY\ntoken=insert-token-here"],
  ["boolean and null", '"secret": false, "token": null, "password": true'],
  ["type annotation", "function login(user: string, password: string, token: string): void"],
  ["variable pass-through", "connect(user=user, password=password, token=self.token)"],
  ["function call", 'const password = getPassword(); token = os.getenv("TOKEN")'],
  ["snake_case variable", "password=db_password"],
  ["prose", "Password: enter your password below\nToken: the token you got from the admin page"],
  ["working directory", "PWD=/home/ada/projects\nOLDPWD=/tmp"],
  ["YAML tag", "Password: !Ref DatabasePassword"],
  ["secret-store reference", "password: vault:secret/data/db#password"],
  ["token type field", '"token_type": "Bearer", "expires_in": 3600'],
  ["bearer in prose", "Use Bearer authentication for every request."],
  ["key name without secret word", '"key": "value", "cache_key": "user:42", "keyboard": "us"'],
  ["tokenizer setting", "tokenizer: o200k_base"],
  ["package names", "pip install sk-video scikit-learn; npm i sk-some-package-name"],
  ["ssh remote", "origin git@github.com:acme/app.git (fetch)"],
  ["plain https remote and host:port", "https://github.com/acme/app.git http://localhost:8080/health"],
  ["hashes and ids", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 id=550e8400-e29b-41d4-a716-446655440000"],
  ["bypass is not pass", "bypass=true compass: north passthrough=1"],
  ["password policy key", '"password_min_length": 12, "passwordless": true, "secretName": "db-creds"'],
  ["authorization placeholder", "Authorization: Bearer <token>\nAuthorization: Bearer $TOKEN"],
  ["public certificate", "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkq\n-----END CERTIFICATE-----"],
  ["publishable Stripe key", "pk_live_51HxxAbCdEfGhIjKlMnOpQrStUv"],
  ["short sig parameter", "https://example.com/?sig=abc"],
  ["URL with placeholder password", "postgres://user:password@localhost/db  redis://:${REDIS_PASSWORD}@cache:6379"],
  // Source code read whole (found over node_modules: these were 5,800 of 6,110 findings).
  ["a lexer's token names", '{ token: "keyword.$0" }, { token: "string.$S2.delim", next: "@pop" }, { token: "delimiter" }'],
  ["a name run together", 'lastSignificantToken = "?InterpolationInTemplate";'],
  ["an audit rule's pass message", '"pass": "Element has a visible label", "pass": "元素可聚焦"'],
  ["type annotations", "provide(link: ILink, token: CancellationToken): void\nargon2(password: KDFInput, salt: KDFInput)"],
  ["expressions", "const pass = thrown !== null;\nconst pass = !this.result.issues;\npass = receivedDiff < expected;"],
  ["a constant", "STENCIL_BACK_PASS_DEPTH_PASS: 0x8803;"],
  ["a constructor call", "const originalPassword = new Uint8Array(8);"],
  ["an attribute map", 'accesskey: "accessKey", autocomplete: "autoComplete"'],
  ["a message format", 'UnexpectedToken: "Unexpected token %0", "pass": "Element görünmür"'],
  ["a member expression", "clientSecret:this.expectedAuthMethod===`none`?void 0:secret"],
  [
    "a key built in a template literal",
    'const pem = `-----BEGIN PRIVATE KEY-----\\n${key.data.toString("base64")}\\n-----END PRIVATE KEY-----`;',
  ],
  ["a union type", "type Credentials = LegacyNotarizePasswordCredentials | NotarizeApiKeyCredentials;"],
];

describe("false positives are not reported", () => {
  it.each(NOT_SECRETS)("%s", (_what, text) => {
    expect(findSecrets(text).map((f) => text.slice(f.start, f.end))).toEqual([]);
  });
});

describe("near misses that ARE secrets", () => {
  it.each([
    ["short real password", "password=abc"],
    ["numeric password", "DB_PASS=123456"],
    ["quoted value in code", 'password = "correct horse battery staple"'],
    ["value after a comment-free YAML key", "  password: s3cr3t-Pa55 # prod"],
    ["header key", "x-api-key: 0123456789abcdef0123"],
    ["a token with digits in code", 'const token = "ghx9Kq2LmN4pR7sT1vW3";'],
    ["a one-word pass", '"pass": "hunter2"'],
    ["a word-only password at the end of a YAML line", "db:\n  password: HelloWorld"],
    ["a word-only password in a connection string", "Server=db;Database=app;User Id=sa;Password=secretword;"],
    ["a word-only password in a query string", "jdbc:mysql://db/app?user=app&password=hunterx&ssl=true"],
  ])("%s", (_what, text) => {
    expect(findSecrets(text)).toHaveLength(1);
  });
});
