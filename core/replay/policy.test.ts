import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../config/config";
import { tempHome } from "../../tests/helpers/tempHome";
import { applyPolicyFile, loadPolicyFile, policyFromConfig, ruleFor } from "./policy";

describe("replay policies", () => {
  it("start from the config and take the file's values over it, per-tool rules first", () => {
    const p = applyPolicyFile(
      policyFromConfig(defaultConfig()),
      { rescue: { thresholdChars: 5_000, toolThresholds: { "mcp__*": 20_000 } }, tools: { Read: { rescue: false } } },
      "mine",
    );
    expect(p.name).toBe("mine");
    expect(p.excerpt.maxChars).toBe(8_000);
    expect(ruleFor(p, "Bash")).toEqual({ rescue: true, threshold: 5_000, dedup: true });
    expect(ruleFor(p, "mcp__fs__read")).toMatchObject({ threshold: 20_000 });
    expect(ruleFor(p, "Read")).toMatchObject({ rescue: false });
  });

  it("a bad file is one sentence naming the key", () => {
    const h = tempHome();
    const f = join(h.path, "p.json");
    writeFileSync(f, JSON.stringify({ dedup: { maxStubStreak: "five" } }));
    expect(() => loadPolicyFile(f)).toThrow(/p\.json: "dedup\.maxStubStreak": /);
    writeFileSync(f, "{ not json");
    expect(() => loadPolicyFile(f)).toThrow(/not a readable JSON policy/);
    writeFileSync(f, JSON.stringify({ rescue: { threshold: 1 } }));
    expect(() => loadPolicyFile(f)).toThrow(/"rescue"/);
    writeFileSync(f, JSON.stringify({ dedup: { maxStubStreak: "five" }, excerpt: { maxChars: "many" } }));
    expect(() => loadPolicyFile(f)).toThrow(/: "excerpt\.maxChars": [^;]+; "dedup\.maxStubStreak": /);
    h.cleanup();
  });
});
