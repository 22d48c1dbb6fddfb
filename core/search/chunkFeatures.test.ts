import { extraTerms, isNavigation } from "./chunkFeatures";

describe("isNavigation", () => {
  it("recognises a table of contents and not ordinary prose or lists", () => {
    expect(isNavigation("## Contents\n\n- [Install](#install)\n- [Usage](#usage)\n- [Retries](#retries)\n- [FAQ](#faq)\n")).toBe(true);
    expect(isNavigation("- install the tool\n- run it\n- read [the docs](https://x.y)\n- done\n")).toBe(false);
    expect(isNavigation("short")).toBe(false);
  });
});

describe("extraTerms", () => {
  it("adds the section heading and the parts of camelCase identifiers", () => {
    expect(extraTerms("set retryTimeoutMs and maxBackoff", "Retries and timeouts")).toBe(
      "Retries and timeouts\nretry timeout ms max backoff",
    );
    expect(extraTerms("plain words only", undefined)).toBe("\n");
  });
});
