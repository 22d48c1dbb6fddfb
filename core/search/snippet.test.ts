import { bestTermSpan, centreSnippet, termPrefix } from "./snippet";

describe("snippets", () => {
  it("centres on the match, not the start of the text", () => {
    const text = "x".repeat(5000) + "NEEDLE" + "y".repeat(5000);
    const s = centreSnippet(text, 5000, 5006, 100);
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    const at = s.indexOf("NEEDLE");
    expect(Math.abs(at - (s.length - at - 6))).toBeLessThanOrEqual(3);
  });

  it("stays within the given bounds", () => {
    const text = "aaa\nbbb NEEDLE bbb\nccc";
    expect(centreSnippet(text, 8, 14, 240, 4, 18)).toBe("bbb NEEDLE bbb");
  });

  it("picks the occurrence where most query terms cluster", () => {
    const text = "retry is mentioned here. " + "filler ".repeat(60) + "set the retry timeout to 2m here." + " filler".repeat(60);
    const span = bestTermSpan(text, ["retry", "timeout"])!;
    expect(text.slice(span[0], span[1]).toLowerCase()).toMatch(/retry|timeout/);
    expect(span[0]).toBeGreaterThan(300);
  });

  it("matches stemmed variants and camelCase parts", () => {
    expect(termPrefix("configure")).toBe("configu");
    expect(bestTermSpan("see the configuration file", ["configure"])).not.toBeNull();
    expect(bestTermSpan("const retryTimeoutMs = 5", ["timeout"])).not.toBeNull();
    expect(bestTermSpan("nothing relevant", ["timeout"])).toBeNull();
  });
});
