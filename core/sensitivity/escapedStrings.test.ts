import { escapedStrings } from "./escapedStrings";
import { findSecrets, maskSecrets } from "./secrets";

// Stand-ins built at run time, so the repository holds no token-shaped literal.
const ghp = ["ghp", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("_");
const hex = "0123456789abcdef".repeat(2);

/** Masks `value` as JSON text and checks it is still JSON; returns the masked value, parsed. */
function maskedJson<T>(value: T): { text: string; parsed: T } {
  const text = maskSecrets(JSON.stringify(value)).text;
  return { text, parsed: JSON.parse(text) as T };
}

describe("secrets inside JSON string literals (a command's output wrapped in JSON)", () => {
  it("finds what the same lines give as plain text, and the JSON stays JSON with its lines", () => {
    const outputs = [
      `Logged in to github.com\n${ghp}\n`,
      `s3 = boto3.client("s3", aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCY${hex.slice(0, 10)}")\n`,
      `database:\n  host: db.internal\n  password: "Sup3r${hex.slice(0, 8)}"\n`,
      `[auths]\n{"auths":{"ghcr.io":{"auth":"${Buffer.from("ci:" + hex).toString("base64")}"}}}\n`,
      `api_key: ${hex}\nsite: datadoghq.com\n`,
    ];
    for (const stdout of outputs) {
      const plain = maskSecrets(stdout);
      expect(plain.count, stdout).toBeGreaterThan(0);
      const { parsed, text } = maskedJson({ exit_code: 0, stdout });
      // the same lines masked the same way, whichever form the tool chose
      expect(parsed.stdout, text).toBe(plain.text);
    }
  });

  it("a value ends where its decoded line ends: the next lines stay visible", () => {
    const { parsed } = maskedJson({ stdout: `DB_PASSWORD=x7Yh2kQ9p\nPORT=3000\nINFO server started` });
    expect(parsed.stdout).toBe("DB_PASSWORD=[masked:password]\nPORT=3000\nINFO server started");
    // and names that only look like keys are judged on their own line, not on the whole literal
    const keys = `SORT_KEY=created_at\nPRIMARY_KEY=id\nLIMIT=50`;
    expect(maskedJson({ stdout: keys }).parsed.stdout).toBe(keys);
  });

  it("a mask never takes the backslash of an escaped quote: the answer still parses", () => {
    const cmd = `curl -s -H "X-API-Key: ${hex}" -H "PRIVATE-TOKEN: glpat-${hex.slice(0, 20)}" https://api.example.com/v1`;
    const { parsed } = maskedJson({ cmd });
    expect(parsed.cmd).not.toContain(hex);
    expect(parsed.cmd).toMatch(/^curl -s -H "X-API-Key: \[masked:\w+\]" -H "PRIVATE-TOKEN: \[masked:\w+\]" https/);
  });

  it("decodes \\u escapes and literals escaped twice", () => {
    const html = JSON.stringify({ html: `<b>\u003e${ghp}</b>` }).replace(">", "\\u003e");
    expect(maskSecrets(html).text).not.toContain(ghp);
    const twice = { result: JSON.stringify({ out: JSON.stringify({ user: "svc", password: "Hunter2" + hex.slice(0, 6) }) }) };
    const { text, parsed } = maskedJson(twice);
    expect(text).not.toContain(hex.slice(0, 6));
    expect(JSON.parse(JSON.parse(parsed.result).out)).toEqual({ user: "svc", password: "[masked:password]" });
  });

  it("a key file's body in a JSON answer keeps its escaped line breaks", () => {
    const body = Array.from({ length: 4 }, (_, i) => (hex + hex).slice(i, i + 60)).join("\n");
    const pem = `-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----`;
    const { parsed } = maskedJson({ stdout: `$ cat ec.pem\n${pem}\n` });
    expect(parsed.stdout.split("\n")).toHaveLength(8);
    expect(parsed.stdout).not.toContain(body.slice(0, 20));
  });

  it("pairs literals as JSON does, never across a raw line break, and ignores text without escapes", () => {
    const text = `say "hi" and "a\\nb" then "c\\"d"\nprose with a "stray quote\\n here\nnext "x"`;
    expect(escapedStrings(text).map((s) => text.slice(s.start, s.end))).toEqual(["a\\nb", 'c\\"d', "stray quote\\n here"]);
    expect(escapedStrings(`{"a":"plain","b":"text"}`)).toEqual([]);
    // a literal cut off at the end of the text (an excerpt, a torn read) is still one
    const cut = `{"stdout":"line\\n${ghp}`;
    expect(findSecrets(cut).map((f) => cut.slice(f.start, f.end))).toEqual([ghp]);
  });
});
