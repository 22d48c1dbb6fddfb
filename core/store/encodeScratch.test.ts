import { EncodeScratch, SCRATCH_MAX_BYTES } from "./encodeScratch";

describe("EncodeScratch", () => {
  it("lends the same bytes Buffer.from gives, for ASCII, accents, CJK and astral characters", () => {
    const scratch = new EncodeScratch();
    for (const t of ["", "plain ascii", "naïve café — ünïcödé", "漢字かな交じり文", "😀 and 𝄞", "x".repeat(200_000) + "é"]) {
      const lent = scratch.encode(t)!;
      expect(Buffer.compare(lent.bytes, Buffer.from(t, "utf8"))).toBe(0);
    }
  });

  it("ends a lease at the next encode, so stale bytes are never taken for the text they held", () => {
    const scratch = new EncodeScratch();
    const first = scratch.encode("first result")!;
    expect(scratch.holds(first.lease)).toBe(true);
    const second = scratch.encode("second")!;
    expect(scratch.holds(first.lease)).toBe(false);
    expect(scratch.holds(second.lease)).toBe(true);
    // The first view now reads the second text's bytes: exactly why the lease is checked.
    expect(first.bytes.subarray(0, 6).toString()).toBe("second");
  });

  it("lends nothing past its cap, and a text that may not fit still ends the previous lease", () => {
    const scratch = new EncodeScratch();
    const small = scratch.encode("small")!;
    expect(scratch.encode("y".repeat(SCRATCH_MAX_BYTES + 1))).toBeNull();
    expect(scratch.holds(small.lease)).toBe(false);
    // Three bytes a char past a third of the cap: does not fit, so nothing is lent.
    expect(scratch.encode("€".repeat(Math.floor(SCRATCH_MAX_BYTES / 3) + 1))).toBeNull();
    // ASCII up to the cap fits.
    const big = "z".repeat(SCRATCH_MAX_BYTES);
    expect(scratch.encode(big)!.bytes.length).toBe(SCRATCH_MAX_BYTES);
  });
});
