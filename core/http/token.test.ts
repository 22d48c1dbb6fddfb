import { statSync, writeFileSync } from "node:fs";
import { tempHome } from "../../tests/helpers/tempHome";
import { ensureToken, tokenMatches, tokenPath } from "./token";

describe("endpoint token", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("is created once, 64 hex chars, owner-only, and the same on every later call", () => {
    const a = ensureToken(home.path);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(tokenPath(home.path)).mode & 0o777).toBe(0o600);
    expect(ensureToken(home.path)).toBe(a);
  });

  it("refuses a file that does not hold a token, with a sentence saying what to do", () => {
    writeFileSync(tokenPath(home.path), "not a token\n", { mode: 0o600 });
    expect(() => ensureToken(home.path)).toThrow(/delete it/);
  });

  it("compares tokens exactly", () => {
    const t = "ab".repeat(32);
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t.slice(1), t)).toBe(false);
    expect(tokenMatches("cd".repeat(32), t)).toBe(false);
  });
});
