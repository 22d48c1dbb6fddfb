import { findSecrets, maskSecrets } from "./secrets";

const AWS_EXAMPLE = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

describe("Dockerfile's legacy `ENV NAME value`", () => {
  const dockerfile = [
    "FROM node:20-slim",
    "ENV PATH /usr/local/bin:$PATH",
    "ENV NODE_ENV production",
    "ENV KEY_FILE /run/secrets/key",
    "ENV DB_PASSWORD_FILE /run/secrets/db_password",
    "ENV GPG_KEY A035C8C19219BA821ECEA86B64E628F8D684696D",
    "ENV CACHE_KEY v2-3f9a1c7e5b2d4a60-deps",
    "ENV API_TOKEN $API_TOKEN",
    `ENV AWS_SECRET_ACCESS_KEY ${AWS_EXAMPLE}`,
    "ENV DB_PASSWORD hunter2-prod",
    "  ENV SMTP_PASSWORD correct horse battery staple",
    "ENV SESSION_SECRET k8Jq2mXv9LpR4tWz \\",
    "    PORT 3000",
    "ENV DB_HOST=db.internal DB_PASSWORD=Zx81kLq2wq",
    'CMD ["node", "server.js"]',
  ].join("\n");

  it("masks the secret values, the whole value of a spaced one, and keeps paths, references, fingerprints and ordinary settings", () => {
    expect(maskSecrets(dockerfile).text).toBe(
      dockerfile
        .replace(AWS_EXAMPLE, "[masked:aws_secret_access_key]")
        .replace("hunter2-prod", "[masked:password]")
        .replace("correct horse battery staple", "[masked:password]")
        .replace("k8Jq2mXv9LpR4tWz", "[masked:secret]")
        .replace("Zx81kLq2wq", "[masked:password]"),
    );
  });

  it("is judged as the `NAME=value` it means: the same names and values are secrets in both forms", () => {
    const pairs: [string, string][] = [
      ["DB_PASSWORD", "hunter2-prod"],
      ["GITHUB_TOKEN", `ghp_${"a1B2c3D4e5F6".repeat(3)}`],
      ["MY_APP_KEY", "9f8e7d6c5b4a39281706"],
      ["SORT_KEY", "created_at"],
      ["GPG_KEY", "A035C8C19219BA821ECEA86B64E628F8D684696D"],
      ["IDEMPOTENCY_KEY", "4f1c2a9e-8b7d-4c3a-9e2f-1a2b3c4d5e6f"],
      ["GOOGLE_APPLICATION_CREDENTIALS", "/secrets/sa.json"],
      ["SECRET_KEY_BASE", "${SECRET_KEY_BASE}"],
      ["DB_PASSWORD", "changeme"],
      ["NEXT_PUBLIC_MAPS_KEY", "pk.abcdef0123456789abcdef0123456789"],
    ];
    for (const [name, value] of pairs) {
      const spaced = findSecrets(`ENV ${name} ${value}`).map((f) => ({
        type: f.type,
        value: `ENV ${name} ${value}`.slice(f.start, f.end),
      }));
      const assigned = findSecrets(`ENV ${name}=${value}`).map((f) => ({
        type: f.type,
        value: `ENV ${name}=${value}`.slice(f.start, f.end),
      }));
      expect(spaced, name).toEqual(assigned);
    }
  });

  it("only as a Dockerfile instruction at a line's start, not in prose or code", () => {
    const text =
      "Set ENV DB_PASSWORD before running the image.\nconst mode = process.env.NODE_ENV; // ENV TOKEN x\nENV DB_PASSWORD hunter2-prod";
    expect(maskSecrets(text).text).toBe(text.replace("hunter2-prod", "[masked:password]"));
  });
});

describe("YAML block scalars (`key: |`, `key: >-`)", () => {
  const yaml = [
    "db:",
    "  host: db.internal",
    "  password: >-",
    "    s3cretPass99",
    "  port: 5432",
    "oauth:",
    "  client_secret: |  # from the console",
    "    GOCSPX-AbCdEfGhIjKlMnOpQrStUvWx",
    "  description: |",
    "    The password is rotated every 90 days; the token too.",
    "service:",
    '  password: ""',
    "  notes: |",
    "    rotated by job Kq83mZp1Lw0vTx5",
    "  token: |",
    "    {{ .Values.apiToken }}",
    "accounts:",
    "- credentials: |",
    "    reporting-Kq83mZp1",
    "",
    "    Lw0vTx5aB7cD9eF2",
    "  name: reporting",
    "",
  ].join("\n");

  it("masks the block under a secret name, line by line in place, and leaves descriptions, empty values and templates", () => {
    expect(maskSecrets(yaml).text).toBe(
      yaml
        .replace("s3cretPass99", "[masked:password]")
        .replace("GOCSPX-AbCdEfGhIjKlMnOpQrStUvWx", "[masked:google_oauth_client_secret]")
        .replace("reporting-Kq83mZp1", "[masked:credentials]")
        .replace("Lw0vTx5aB7cD9eF2", "[masked:credentials]"),
    );
  });

  it("ends the block at the first line not deeper than its key, and takes no lines for a key without a block", () => {
    const text =
      "password:\n  nested: value123456\nsecret: >\nnext: x\napi:\n  token: >-\n    Kq83mZp1Lw0vTx5aB7cD\n  mode: Kq83mZp1Lw0vTx5\n";
    expect(maskSecrets(text).text).toBe(text.replace("Kq83mZp1Lw0vTx5aB7cD", "[masked:token]"));
  });
});

describe("both forms inside a shell tool's JSON answer", () => {
  it("are masked in the decoded lines, and the answer stays JSON with every line in place", () => {
    const stdout = [
      "$ cat Dockerfile values.yaml",
      "FROM node:20",
      "ENV NODE_ENV production",
      "ENV DB_PASSWORD hunter2-prod",
      "db:",
      "  password: |",
      "    s3cretPass99",
      "    Kq83mZp1Lw0vTx5",
      "  host: db.internal",
    ].join("\n");
    const masked = maskSecrets(JSON.stringify({ exit_code: 0, stdout }));
    const given = (JSON.parse(masked.text) as { stdout: string }).stdout;
    expect(given).toBe(
      stdout
        .replace("hunter2-prod", "[masked:password]")
        .replace("s3cretPass99", "[masked:password]")
        .replace("Kq83mZp1Lw0vTx5", "[masked:password]"),
    );
  });
});

describe("masking masked text", () => {
  it("finds nothing new in either form", () => {
    const text = "ENV SMTP_PASSWORD correct horse battery staple\nsecrets:\n  password: |\n    s3cretPass99\n    Kq83mZp1Lw0vTx5\n";
    const once = maskSecrets(text);
    expect(once.count).toBe(2);
    expect(maskSecrets(once.text)).toEqual({ text: once.text, count: 0, types: [] });
    const json = maskSecrets(JSON.stringify({ stdout: text }));
    expect(maskSecrets(json.text)).toEqual({ text: json.text, count: 0, types: [] });
  });
});
