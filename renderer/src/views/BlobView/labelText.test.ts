import { describe, expect, it } from "vitest";
import { labelFromText, labelledByContent } from "./labelText";

describe("why a blob is labelled", () => {
  it("names the source and the ledger's reason", () => {
    const byArgs = {
      label: "credential" as const,
      sources: ["arguments" as const],
      reasons: ["arguments hold password assignment"],
      at: 0,
    };
    expect(labelFromText(byArgs)).toBe("from the call's arguments (arguments hold password assignment)");
    expect(labelledByContent(byArgs)).toBe(false);
    const byContent = { ...byArgs, sources: ["content" as const], reasons: ["content holds AWS secret key"] };
    expect(labelFromText(byContent)).toBe("from the result's content (content holds AWS secret key)");
    expect(labelledByContent(byContent)).toBe(true);
    // Unknown to the ledger: nothing is claimed.
    expect(labelledByContent(null)).toBe(true);
  });
});
