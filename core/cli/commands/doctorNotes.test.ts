import { slowCheckNotes, SLOW_CHECK_BYTES } from "./doctor";

describe("what doctor says before its slow checks", () => {
  it("names the index's size before the integrity check of a big index, and the store's before verifying it, unless --quick", () => {
    const big = 6.2 * 1024 ** 3;
    expect(slowCheckNotes(big, 3 * 1024 ** 3, true)).toEqual([
      "doctor: checking the index (6.20 GB): the integrity check reads all of it, which can take a minute…",
      "doctor: then every stored result against its id (3.00 GB in all; --quick skips this), which can take minutes…",
    ]);
    expect(slowCheckNotes(big, 3 * 1024 ** 3, false)).toHaveLength(1);
  });

  it("says nothing for a store that checks in moments", () => {
    expect(slowCheckNotes(SLOW_CHECK_BYTES - 1, SLOW_CHECK_BYTES - 1, true)).toEqual([]);
  });
});
