import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { countLines } from "../text/lines";
import { buildLeakFixture } from "../../tests/fixtures/secrets/leakFixture";
import { findSecrets, maskSecrets, scanSubject } from "./secrets";
import { megabytes } from "../../tests/helpers/megabytes";

describe("maskSecrets on the leak fixture", () => {
  const { text, planted } = buildLeakFixture();
  const masked = maskSecrets(text);

  it("plants at least twenty kinds of secrets in realistic output", () => {
    expect(new Set(planted.map((p) => p.kind)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(planted.map((p) => [p.kind, p.value] as const))("leaves no trace of %s", (_kind, value) => {
    expect(text).toContain(value);
    expect(masked.text).not.toContain(value);
  });

  it("keeps the line count and every non-secret line as it was", () => {
    expect(countLines(masked.text)).toBe(countLines(text));
    const original = text.split("\n");
    const after = masked.text.split("\n");
    original.forEach((line, i) => {
      if (!after[i]!.includes("[masked:")) expect(after[i]).toBe(line);
    });
  });

  it("keeps the non-secret part of each line", () => {
    expect(masked.text).toContain("AWS_SECRET_ACCESS_KEY=[masked:aws_secret_access_key]\n");
    expect(masked.text).toContain("> authorization: Bearer [masked:jwt]\n");
    expect(masked.text).toContain("https://deploy-bot:[masked:url_credentials]@git.example.com/acme/app.git");
    expect(masked.text).toContain("-----BEGIN OPENSSH PRIVATE KEY-----\n[masked:private_key]\n");
    // one marker per line of the body, its escaped line breaks kept (the JSON's own text keeps its lines)
    expect(masked.text).toMatch(
      /"private_key": "-----BEGIN PRIVATE KEY-----(?:\\n\[masked:private_key\]){2,}\\n-----END PRIVATE KEY-----\\n"/,
    );
    expect(masked.text).toContain('"token_count": 1234');
    expect(masked.text).toContain("LOG_LEVEL=info\n");
  });

  it("reports how many spans it masked and of which types", () => {
    expect(masked.count).toBe(findSecrets(text).length);
    expect(masked.types).toEqual(expect.arrayContaining(["private_key", "github_token", "jwt", "aws_access_key_id", "password"]));
  });

  it("is idempotent: masking masked text changes nothing", () => {
    expect(maskSecrets(masked.text)).toEqual({ text: masked.text, count: 0, types: [] });
  });
});

describe("findSecrets spans", () => {
  it("points at the value only", () => {
    const text = 'config: {"password": "hunter2!x"}';
    const [f] = findSecrets(text);
    expect(text.slice(f!.start, f!.end)).toBe("hunter2!x");
    expect(f!.type).toBe("password");
  });

  it("names the token kind behind a generic key", () => {
    const token = "ghp_" + "a1B2".repeat(9);
    expect(findSecrets(`MY_TOKEN=${token}`)).toEqual([{ type: "github_token", start: 9, end: 9 + token.length }]);
  });

  it("still finds a token inside a value the key rules reject", () => {
    const token = "ghp_" + "Zz09".repeat(9);
    const text = `Password: use ${token} as the password`;
    expect(findSecrets(text).map((f) => text.slice(f.start, f.end))).toEqual([token]);
  });

  it("counts offsets in UTF-16 units after non-ASCII text", () => {
    const text = "Grüße 日本 — DB_PASSWORD=s3cr3t-valüe next";
    const [f] = findSecrets(text);
    expect(text.slice(f!.start, f!.end)).toBe("s3cr3t-valüe");
  });

  it("masks a private key cut off before its END line, and only its body", () => {
    const body = ["MIIEpAIBAAKCAQEAx1", "k3J9dQ8f0Zr2Lw=="];
    const text = ["log start", "-----BEGIN RSA PRIVATE KEY-----", ...body, "", "next command output"].join("\n");
    const out = maskSecrets(text).text;
    for (const line of body) expect(out).not.toContain(line);
    expect(out).toContain("next command output");
    expect(countLines(out)).toBe(countLines(text));
  });

  it("keeps CRLF line endings inside a masked key", () => {
    const text = "-----BEGIN PRIVATE KEY-----\r\nAAAAbbbbCCCC\r\nDDDDeeee\r\n-----END PRIVATE KEY-----\r\n";
    expect(maskSecrets(text).text).toBe(
      "-----BEGIN PRIVATE KEY-----\r\n[masked:private_key]\r\n[masked:private_key]\r\n-----END PRIVATE KEY-----\r\n",
    );
  });

  it("leaves public certificates alone", () => {
    const cert = "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----";
    expect(findSecrets(cert)).toEqual([]);
  });

  it("returns nothing for empty or non-string input", () => {
    expect(findSecrets("")).toEqual([]);
    expect(findSecrets(undefined as unknown as string)).toEqual([]);
  });
});

// How long these take is measured in bench/secretsBench.ts (`npm run bench -- secrets`); here,
// only that big and hostile inputs get the right answer.
describe("big and hostile inputs", () => {
  it("finds nothing in 1 MB of secret-free log and JSON full of near-miss words", () => {
    const log = megabytes(
      1,
      (i) => `2024-05-01T12:00:${i % 60}Z INFO GET /api/items/${i} status=200 took=${i % 97}ms user=u${i} "token_count": ${i}\n`,
    );
    const json = megabytes(1, (i) => `{"id":${i},"name":"item-${i}","max_tokens":${i},"url":"https://example.com/p/${i}?page=${i}"},`);
    expect(findSecrets(log)).toEqual([]);
    expect(findSecrets(json)).toEqual([]);
  });

  it("scans the UTF-8 bytes it is given for an ASCII text, and the text itself otherwise, with the same findings", () => {
    const { text } = buildLeakFixture();
    const ascii = text.replace(/[\u0080-\uffff]/g, "?");
    expect(ascii.length).toBe(Buffer.byteLength(ascii, "utf8"));
    expect(findSecrets(ascii, Buffer.from(ascii, "utf8"))).toEqual(findSecrets(ascii));
    expect(findSecrets(ascii).length).toBeGreaterThan(20);
    // non-ASCII: byte offsets would not be char offsets, so the bytes are not used
    const accented = "café ünïcödé 😀 " + ascii;
    expect(findSecrets(accented, Buffer.from(accented, "utf8"))).toEqual(findSecrets(accented));
    expect(scanSubject(accented, Buffer.from(accented, "utf8"))).toBe(accented);
    expect(scanSubject(ascii, Buffer.from("different length"))).toBe(ascii);
  });

  // Each marker was once searched for from every earlier one: 2 MB of these took from 30 s to
  // minutes (quadratic), far past this test's timeout; one pass takes milliseconds.
  it.each([
    ["BEGIN lines without an END", "-----BEGIN RSA PRIVATE KEY-----\n"],
    ["JWK members without a closing brace", '{"kty": "EC", '],
    ["kty words without braces", '"kty": '],
    ["PuTTY headers without private lines", "PuTTY-User-Key-File-3: ssh-rsa\n"],
  ])("returns at once on 2 MB of %s, and still masks a real key after them", (_what, unit) => {
    const hostile = unit.repeat(Math.ceil((2 * 1024 * 1024) / unit.length));
    const body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0";
    const key = `\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\n`;
    expect(findSecrets(hostile).filter((f) => f.type !== "private_key" || f.end - f.start > 40)).toEqual([]);
    const out = maskSecrets(hostile + key).text;
    expect(out).not.toContain(body);
    expect(out.endsWith("[masked:private_key]\n-----END RSA PRIVATE KEY-----\n")).toBe(true);
  });

  it("masks every one of thousands of secrets in 1 MB and leaves the lines between them as they were", () => {
    const text = megabytes(1, (i) => (i % 50 === 0 ? `DB_PASSWORD=pw${i}xyz!\n` : `line ${i} of ordinary output with some words\n`));
    const out = maskSecrets(text);
    const planted = text.split("\n").filter((l) => l.startsWith("DB_PASSWORD=")).length;
    expect(planted).toBeGreaterThan(400);
    expect(out.count).toBe(planted);
    expect(out.text).not.toMatch(/pw\d+xyz!/);
    const lines = out.text.split("\n");
    expect(lines.filter((l) => l === "DB_PASSWORD=[masked:password]")).toHaveLength(planted);
    expect(lines.filter((l) => l.startsWith("line "))).toEqual(text.split("\n").filter((l) => l.startsWith("line ")));
  });
});

describe("private keys in other wrappings", () => {
  it("masks a key cut off inside a JSON string", () => {
    const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC";
    const text = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${body}\\nAAAABBBBCCCCDDDD`;
    const out = maskSecrets(text).text;
    expect(out).not.toContain(body);
    expect(out).not.toContain("AAAABBBB");
    expect(out).toContain("-----BEGIN PRIVATE KEY-----\\n[masked:private_key]");
  });

  it("masks a base64-encoded PEM private key but not a base64-encoded certificate", () => {
    const key = Buffer.from(
      "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49\n-----END EC PRIVATE KEY-----\n",
    ).toString("base64");
    const cert = Buffer.from("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZ\n-----END CERTIFICATE-----\n").toString("base64");
    expect(maskSecrets(`tls.key: ${key}\ntls.crt: ${cert}`).text).toBe(`tls.key: [masked:private_key]\ntls.crt: ${cert}`);
  });
});

describe("key and credential files an agent reads whole", () => {
  // Real key material, made here: the detector must know the files' formats, not these strings.
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const privateJwk = (k: KeyObject) => k.export({ format: "jwk" }) as Record<string, string>;

  it("masks every private member of a JWK set (EC, RSA, symmetric) and leaves the public members and public keys as they were", () => {
    const ecJwk = privateJwk(ec.privateKey);
    const rsaJwk = privateJwk(rsa.privateKey);
    const jwks = JSON.stringify(
      {
        keys: [
          { ...ecJwk, kid: "a" },
          { ...rsaJwk, kid: "b" },
          { kty: "oct", k: "c2VjcmV0LXNpZ25pbmcta2V5LTAxMjM0NTY3" },
        ],
      },
      null,
      2,
    );
    const out = maskSecrets(jwks).text;
    for (const v of [ecJwk.d, rsaJwk.d, rsaJwk.p, rsaJwk.q, rsaJwk.dp, rsaJwk.dq, rsaJwk.qi, "c2VjcmV0LXNpZ25pbmcta2V5LTAxMjM0NTY3"])
      expect(out).not.toContain(v);
    for (const v of [ecJwk.x, ecJwk.y, rsaJwk.n, '"e": "AQAB"', '"kid": "b"']) expect(out).toContain(v);
    const publicSet = JSON.stringify({ keys: [ec.publicKey.export({ format: "jwk" }), rsa.publicKey.export({ format: "jwk" })] });
    expect(findSecrets(publicSet)).toEqual([]);
    // a JWK held in a JSON string, as a tool result often carries it
    const escaped = JSON.stringify({ secret: JSON.stringify(ecJwk) }).replace('"secret"', '"value"');
    expect(maskSecrets(escaped).text).not.toContain(ecJwk.d);
  });

  it("masks the private lines of a PuTTY key file, and only them", () => {
    const priv = "AAAAIGsmVpW4rPqhsE1kJ0w5yGZ4eQm1b3Gv3cUQeXvJ0oNz";
    const ppk = [
      "PuTTY-User-Key-File-3: ssh-ed25519",
      "Encryption: none",
      "Comment: ada@laptop",
      "Public-Lines: 2",
      "AAAAC3NzaC1lZDI1NTE5AAAAIFp3P2dM8j8z0L5dA1VvUe4qk7b5wN0yQm",
      "Zz0=",
      "Private-Lines: 1",
      priv,
      "Private-MAC: 5c2f0a8e1b7d4c3a9f6e2d1c0b8a7f6e5d4c3b2a19080706050403020100ffee",
    ].join("\r\n");
    expect(maskSecrets(ppk).text).toBe(ppk.replace(priv, "[masked:private_key]"));
  });

  it("masks the password of a .netrc written over several lines, and of a one-line entry", () => {
    const netrc =
      "machine api.heroku.com\n  login ada@acme.test\n  password 4f6a8b2c-1d3e-4f5a-9b7c-2e4d6f8a0b1c\nmachine git.heroku.com login ada password hx9Kq2LmN4pR7sT1\n";
    expect(maskSecrets(netrc).text).toBe(
      "machine api.heroku.com\n  login ada@acme.test\n  password [masked:password]\nmachine git.heroku.com login ada password [masked:password]\n",
    );
    expect(findSecrets("machine learning models need a password reset flow")).toEqual([]);
  });

  it("masks .pgpass passwords (escaped colons included) and not addresses or compiler output of the same shape", () => {
    const pgpass = "db.internal:5432:app:app_user:Xk9mP2qLw8vNz\n*:*:*:replicator:abc\\:def123\n";
    expect(maskSecrets(pgpass).text).toBe("db.internal:5432:app:app_user:[masked:password]\n*:*:*:replicator:[masked:password]\n");
    for (const line of [
      "link/ether a1:22:3c:4d:5e:6f brd ff:ff:ff:ff:ff:ff",
      "inet6 fe80::1c2d:3e4f:5a6b:7c8d/64 scope link",
      "src/app.ts:12:5: error TS2322: Type 'string' is not assignable",
      "app.py:10:80: E501 line too long (88 > 79 characters)",
    ])
      expect(findSecrets(line)).toEqual([]);
  });

  it("masks .npmrc's legacy _auth, Maven's <password>, config files' <apiKey> and an age identity", () => {
    const auth = Buffer.from("deploy:S3cretPassw0rd").toString("base64");
    expect(maskSecrets(`//registry.example.com/:_auth=${auth}\nalways-auth=true`).text).toBe(
      "//registry.example.com/:_auth=[masked:npm_auth]\nalways-auth=true",
    );
    expect(maskSecrets("<server><id>nexus</id><username>deploy</username><password>pXq7Rm2Lz9Kw</password></server>").text).toBe(
      "<server><id>nexus</id><username>deploy</username><password>[masked:password]</password></server>",
    );
    expect(maskSecrets("<ApiKey>a8F3kQ9zL2mX7pR4tW6yB1cV5nJ0hG8d</ApiKey>").text).toBe("<ApiKey>[masked:secret]</ApiKey>");
    expect(findSecrets("<password>${DB_PASSWORD}</password><token>the</token><apiKey>${API_KEY}</apiKey>")).toEqual([]);
    // 58 bech32 characters after the `1`, as age-keygen writes them
    const age = `# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\nAGE-SECRET-KEY-1${"QYQSZQGP".repeat(7)}QY`;
    expect(maskSecrets(age).text).toBe(
      "# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n[masked:age_secret_key]",
    );
  });
});

describe("vendor tokens and password hashes that name themselves", () => {
  // Built from repeats, so the repository holds no token-shaped literal (see the corpus header).
  const a = (n: number) => "aB3d".repeat(Math.ceil(n / 4)).slice(0, n);
  const h = (n: number) => "0f9e".repeat(Math.ceil(n / 4)).slice(0, n);
  it.each([
    ["terraform_cloud_token", `${a(14)}.atlasv1.${a(67)}`],
    ["tailscale_key", `tskey-auth-k${a(11)}-${a(33)}`],
    ["onepassword_service_token", `ops_eyJ${a(120)}`],
    ["mapbox_secret_token", `sk.eyJ1IjoiYWRhIiwiYSI6ImNr${a(20)}.${a(22)}`],
    ["pulumi_token", `pul-${h(40)}`],
    ["airtable_token", `pat${a(14)}.${h(64)}`],
    ["figma_token", `figd_${a(40)}`],
    ["pinecone_key", `pcsk_${a(6)}_${a(60)}`],
    ["netlify_token", `nfp_${a(36)}`],
    ["buildkite_token", `bkua_${h(40)}`],
    ["neon_api_key", `napi_${h(64)}`],
    ["prefect_key", `pnu_${a(36)}`],
    ["contentful_token", `CFPAT-${a(43)}`],
    ["bitbucket_app_password", `ATBB${a(32)}`],
    ["jfrog_token", `AKCp${a(69)}`],
    ["alibaba_access_key_id", `LTAI${a(20)}`],
    ["circleci_token", `CCIPAT_${a(22)}_${h(40)}`],
    ["sourcegraph_token", `sgp_${h(16)}_${h(40)}`],
    ["password_hash", `$6$${a(16)}$${a(86)}`],
    ["password_hash", `$2b$12$${a(53)}`],
    ["password_hash", `$apr1$${a(8)}$${a(22)}`],
    ["password_hash", `$argon2id$v=19$m=65536,t=3,p=4$${a(22)}$${a(43)}`],
  ])("%s: %s", (type, token) => {
    const line = `value: ${token} (end)`;
    expect(findSecrets(line)).toEqual([{ type, start: 7, end: 7 + token.length }]);
  });

  it("masks a shadow line's hash and keeps its other fields, and wp-config's constants", () => {
    const hash = `$6$${a(16)}$${a(86)}`;
    expect(maskSecrets(`root:${hash}:19000:0:99999:7:::`).text).toBe("root:[masked:password_hash]:19000:0:99999:7:::");
    expect(
      maskSecrets(`define( 'DB_PASSWORD', 'pXq7Rm2Lz9Kw' );\ndefine('NONCE_SALT', '${a(64)}');\ndefine('WP_DEBUG', false);`).text,
    ).toBe("define( 'DB_PASSWORD', '[masked:secret]' );\ndefine('NONCE_SALT', '[masked:secret]');\ndefine('WP_DEBUG', false);");
  });
});

describe("secrets in what cloud and infrastructure CLIs print", () => {
  it.each([
    [
      "a pod spec's env (kubectl get deploy -o yaml)",
      "    env:\n    - name: DB_PASSWORD\n      value: hunter2xyzQ\n    - name: LOG_LEVEL\n      value: info",
      "hunter2xyzQ",
    ],
    [
      "an ECS task definition's environment",
      '"environment": [{"name": "STRIPE_SECRET", "value": "plainSecretValue9"}, {"name": "LOG_LEVEL", "value": "info"}]',
      "plainSecretValue9",
    ],
    ["CloudFormation parameters", '{"ParameterKey": "DbPassword", "ParameterValue": "hunter2xyzQ"}', "hunter2xyzQ"],
    ["a Postman environment", '{"key": "apiToken", "value": "abcDEF123456ghi", "type": "secret", "enabled": true}', "abcDEF123456ghi"],
    [
      "an SSM SecureString",
      '{"Parameter": {"Name": "/prod/db", "Type": "SecureString", "Value": "hunter2xyzQ", "Version": 3}}',
      "hunter2xyzQ",
    ],
    ["a Secrets Manager SecretString", '{"Name": "prod/api", "SecretString": "plainApiSecretValue99"}', "plainApiSecretValue99"],
    [
      "vault kv get's table",
      "====== Data ======\nKey         Value\n---         -----\npassword    hunter2xyzQ\nttl         768h",
      "hunter2xyzQ",
    ],
    [
      "a WireGuard preshared key",
      "[Peer]\nPresharedKey = /UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak=\nAllowedIPs = 10.0.0.2/32",
      "/UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak=",
    ],
    [
      "an OpenVPN static key",
      "<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\ne685bdaf659a25a200e2b9e39e51ff03\n-----END OpenVPN Static key V1-----\n</tls-auth>",
      "e685bdaf659a25a200e2b9e39e51ff03",
    ],
    ["MySQL's IDENTIFIED BY", "CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY 'Hunter2xyzQ';", "Hunter2xyzQ"],
    ["MySQL's SET PASSWORD", "SET PASSWORD FOR 'app'@'%' = 'Hunter2xyzQ';", "Hunter2xyzQ"],
    ["PostgreSQL's role password", "CREATE ROLE app WITH LOGIN PASSWORD 'Hunter2xyzQ';", "Hunter2xyzQ"],
    ["PowerShell's ConvertTo-SecureString", '$cred = ConvertTo-SecureString -String "Hunter2xyzQ" -AsPlainText -Force', "Hunter2xyzQ"],
    ["htpasswd in batch mode", "htpasswd -bc .htpasswd admin Hunter2xyzQ", "Hunter2xyzQ"],
    ["a password piped into docker login", "echo Hunter2xyzQ | docker login -u me --password-stdin ghcr.io", "Hunter2xyzQ"],
    [
      "a password printed into helm registry login",
      "printf '%s' 'Hunter2xyzQ' | helm registry login r.example.com --password-stdin",
      "Hunter2xyzQ",
    ],
    ["a password piped into chpasswd", "echo 'app:Hunter2xyzQ' | sudo chpasswd", "Hunter2xyzQ"],
    ["Gradle's Groovy signing config", "release {\n  storePassword 'Andr0idSt0re9'\n  keyAlias 'upload'\n}", "Andr0idSt0re9"],
  ])("%s", (_what, text, secret) => {
    const out = maskSecrets(text).text;
    expect(out).not.toContain(secret);
    // everything else stays: the names, the other entries, the armour
    expect(out.replace(/\[masked:[a-z_]+\]/, secret)).toBe(text);
  });

  it.each([
    ["a value taken from a Secret", "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password"],
    ["a variable reference", "- name: API_TOKEN\n  value: $(API_TOKEN_FROM_SECRET)"],
    ["help text in two columns", "password    The password to use when connecting\n  token       Print the token"],
    ["a counter named like a token", '{"name": "max_tokens", "value": "4096"}'],
    ["a templated header", '{"key": "Authorization", "value": "Bearer {{token}}"}'],
    ["a variable piped into a login", 'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin\necho done | docker login --help'],
    ["a WireGuard public key", "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="],
  ])("leaves alone %s", (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});
