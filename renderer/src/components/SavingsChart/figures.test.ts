import { describe, expect, it } from "vitest";
import { niceMax, toBars } from "./figures";

const row = {
  key: "read_file",
  calls: 3,
  rescued: 2,
  stubbed: 1,
  returnedChars: 90_000,
  returnedTokens: 20_000,
  givenChars: 9_000,
  givenTokens: 2_000,
  pulledChars: 4_000,
  pulledTokens: 900,
  netChars: 77_000,
  netTokens: 17_100,
  pendingTokenCounts: 0,
  estimatedTokenCounts: 0,
};

describe("savings figures", () => {
  it("takes the ledger's numbers as they are, per unit", () => {
    expect(toBars([row], "tokens")[0]).toEqual({ key: "read_file", returned: 20_000, given: 2_000, pulled: 900, net: 17_100 });
    expect(toBars([row], "chars")[0]!.net).toBe(77_000);
  });

  it("rounds axis maxima up to 1, 2 or 5 times a power of ten", () => {
    expect(niceMax(17_100)).toBe(20_000);
    expect(niceMax(420)).toBe(500);
    expect(niceMax(0)).toBe(1);
  });
});
