import RE2 from "re2";
import { buildLeakFixture } from "../../tests/fixtures/secrets/leakFixture";
import { SECRET_PATTERNS, classifyKey, compileScan, matchEntry, tokenTypeOf } from "./secretPatterns";

describe("the pattern table", () => {
  it.each(SECRET_PATTERNS.map((p, i) => [i, p.type, p] as const))(
    "entry %i (%s) compiles in RE2 and has no capturing group of its own",
    (_i, _type, p) => {
      for (const part of [p.prefix, p.value, p.suffix]) {
        if (!part) continue;
        expect(() => new RE2(part)).not.toThrow();
        expect(new RE2(`|${part}`).exec("")!.length).toBe(1); // one slot = the whole match only
      }
    },
  );

  it.each([
    ["main", 30],
    ["flags", 2],
  ] as const)("splits every %s scan candidate exactly as RE2 matched it (the two engines agree)", (group, least) => {
    const { text } = buildLeakFixture(7);
    const scan = compileScan(group);
    let m: RegExpExecArray | null;
    let candidates = 0;
    while ((m = scan.exec(text))) {
      // As secrets.ts asks: whole-line entries only where a line starts, held to the scan's length.
      const lineStart = m.index === 0 || text[m.index - 1] === "\n";
      const parts = matchEntry(text.slice(m.index, m.index + m[0].length + 1), 0, lineStart ? m[0].length : undefined, group);
      expect(parts, m[0]).not.toBeNull();
      expect(SECRET_PATTERNS[parts!.entry]!.scan ?? "main").toBe(group);
      expect(parts!.prefix.length + parts!.value.length + parts!.suffix.length, m[0]).toBe(m[0].length);
      candidates++;
    }
    expect(candidates).toBeGreaterThan(least);
  });
});

describe("tokenTypeOf", () => {
  it("names self-identifying tokens and nothing else", () => {
    expect(tokenTypeOf("ghp_" + "a".repeat(36))).toBe("github_token");
    expect(tokenTypeOf("sk-ant-api03-" + "b".repeat(40))).toBe("anthropic_key");
    expect(tokenTypeOf("sk-proj-" + "c".repeat(40))).toBe("openai_key");
    expect(tokenTypeOf("AKIA" + "D".repeat(16))).toBe("aws_access_key_id");
    expect(tokenTypeOf("hunter2")).toBeNull();
  });
});

describe("classifyKey", () => {
  it.each([
    ["DB_PASSWORD", "password"],
    ["PGPASSWORD", "password"],
    ["smtp_pass", "password"],
    ["AWS_SECRET_ACCESS_KEY", "aws_secret_access_key"],
    ["SecretAccessKey", "aws_secret_access_key"],
    ["aws_session_token", "aws_session_token"],
    ["GITHUB_TOKEN", "token"],
    ["x-api-key", "api_key"],
    ["private_key", "private_key"],
    ["SECRET_KEY", "secret"],
    ["client_secret", "secret"],
  ])("%s → %s", (key, type) => {
    expect(classifyKey(key)).toBe(type);
  });
});
