import { compilePattern, requiredLiterals } from "./grepPattern";

describe("requiredLiterals", () => {
  it.each([
    ["ERROR", ["ERROR"]],
    ["status=5\\d\\d", ["status=5"]],
    ["connection (refused|reset)", ["connection "]],
    ["ERROR|FATAL", ["ERROR", "FATAL"]],
    ["colou?r name", ["r name"]],
    ["ab+cd", ["ab"]],
    ["x{2}yz", ["yz"]],
    ["a\\.b\\.c", ["a.b.c"]],
    ["[abc]def", ["def"]],
    ["\\d+ms", ["ms"]],
  ])("%s requires %j", (pattern, expected) => {
    expect(requiredLiterals(pattern)).toEqual(expected);
  });

  it.each(["(?i)error", "\\d+", "a|\\w+", "e.r", "\\Qa.b\\E", "x*", "{weird"])("gives up on %s", (pattern) => {
    expect(requiredLiterals(pattern)).toBeNull();
  });
});

describe("compilePattern", () => {
  it("allows a literal TAB and refuses other control characters with a sentence", () => {
    expect(compilePattern("a\tb", true).ok).toBe(true);
    const r = compilePattern("a\u0001b", true);
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/^The pattern contains the control character U\+0001/) });
    expect(compilePattern("a\nb", true).ok).toBe(false);
  });

  it("refuses an over-long pattern", () => {
    expect(compilePattern("a".repeat(1001), true)).toEqual({
      ok: false,
      message: "The pattern is 1,001 chars long, over the 1,000-char limit for a grep pattern; grep for a short, distinctive part of it.",
    });
    expect(compilePattern("a".repeat(1000), true).ok).toBe(true);
  });

  it("explains a bad pattern, including what RE2 does not support", () => {
    expect(compilePattern("(a", true)).toEqual({ ok: false, message: 'The pattern "(a" is a bad pattern: missing ): (a.' });
    expect(compilePattern("(?=x)y", true)).toMatchObject({
      message: expect.stringMatching(/bad pattern: .*RE2 has no lookaround or backreferences/),
    });
    expect(compilePattern("(a)\\1", true)).toMatchObject({ message: expect.stringMatching(/RE2 has no lookaround or backreferences/) });
  });
});
