import { hourKey, hourlySavings } from "./hourlySavings";
import type { SavingsFigures } from "../api/dto";

const HOUR = 3_600_000;
const fig = (netTokens: number, calls: number): SavingsFigures => ({
  key: "total",
  calls,
  rescued: 0,
  stubbed: 0,
  returnedChars: 0,
  returnedTokens: netTokens,
  givenChars: 0,
  givenTokens: 0,
  pulledChars: 0,
  pulledTokens: 0,
  netChars: 0,
  netTokens,
  pendingTokenCounts: 0,
  estimatedTokenCounts: 0,
});

describe("hourly savings", () => {
  it("splits cumulative ledger totals into hours that add up to the total", () => {
    const now = Date.UTC(2026, 2, 14, 9, 30);
    // Calls at 07:10 (100 tokens) and 09:05 (50 tokens).
    const calls = [
      { ts: Date.UTC(2026, 2, 14, 7, 10), t: 100 },
      { ts: Date.UTC(2026, 2, 14, 9, 5), t: 50 },
    ];
    const since = (s: number) => {
      const hit = calls.filter((c) => c.ts >= s);
      return hit.length
        ? fig(
            hit.reduce((a, c) => a + c.t, 0),
            hit.length,
          )
        : undefined;
    };
    const h = hourlySavings(since, now, 4);
    expect(h.map((x) => x.key)).toEqual(["2026-03-14T06", "2026-03-14T07", "2026-03-14T08", "2026-03-14T09"]);
    expect(h.map((x) => x.netTokens)).toEqual([0, 100, 0, 50]);
    expect(h.reduce((a, x) => a + x.calls, 0)).toBe(2);
    expect(hourKey(now + HOUR)).toBe("2026-03-14T10");
  });
});
