import { describe, expect, it } from "vitest";
import { fmtAgo, fmtBytes, fmtCompact, fmtInt, fmtMs, fmtTokens, pct, shortId, visibleText } from "./format";

describe("format", () => {
  it("shows bidirectional controls as code points, so untrusted text reads as stored", () => {
    expect(visibleText("invoice\u202Etxt.exe")).toBe("invoice[U+202E]txt.exe");
    expect(visibleText("a\u2066b\u2069c\u200F")).toBe("a[U+2066]b[U+2069]c[U+200F]");
    expect(visibleText("plain ünïcode 名前")).toBe("plain ünïcode 名前");
    expect(shortId("\u202Eeman-session-id", 14)).toBe("[U+202E]eman-…");
  });

  it("formats counts exactly below 10 k and compactly above", () => {
    expect(fmtInt(24003)).toBe("24,003");
    expect(fmtInt(null)).toBe("–");
    expect(fmtCompact(9_999)).toBe("9,999");
    expect(fmtCompact(12_345)).toBe("12.3 k");
    expect(fmtCompact(4_560_000)).toBe("4.56 M");
    expect(fmtCompact(-12_345)).toBe("-12.3 k");
  });

  it("marks token figures that hold estimated counts", () => {
    expect(fmtTokens(24003, 0)).toBe("24,003");
    expect(fmtTokens(24003, 2)).toBe("≈24,003");
    expect(fmtTokens(24003, true)).toBe("≈24,003");
    expect(fmtTokens(null, true)).toBe("–");
  });

  it("formats sizes in binary units", () => {
    expect(fmtBytes(512)).toBe("512 B");
    expect(fmtBytes(50 * 1024 * 1024)).toBe("50.0 MB");
    expect(fmtBytes(500 * 1024 * 1024)).toBe("500 MB");
  });

  it("says how long ago, or in how long", () => {
    expect(fmtAgo(1_000_000 - 90_000, 1_000_000)).toBe("2 min ago");
    expect(fmtAgo(1_000_000 + 7_200_000, 1_000_000)).toBe("in 2 h");
  });

  it("durations from milliseconds to minutes", () => {
    expect(fmtMs(0.4)).toBe("0 ms");
    expect(fmtMs(340)).toBe("340 ms");
    expect(fmtMs(1_240)).toBe("1.24 s");
    expect(fmtMs(150_000)).toBe("2.5 min");
    expect(fmtMs(null)).toBe("–");
  });

  it("percentages and short ids", () => {
    expect(pct(1, 3)).toBe("33 %");
    expect(pct(1, 0)).toBe("0 %");
    expect(shortId("0123456789abcdef0123", 8)).toBe("0123456…");
  });
});
