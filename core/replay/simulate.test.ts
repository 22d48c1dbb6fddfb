import { defaultConfig } from "../config/config";
import { createTokenCounter } from "../savings/tokens";
import { applyPolicyFile, policyFromConfig } from "./policy";
import { simulateSession, type ReplayCallInput } from "./simulate";

const entities = Array.from({ length: 40 }, (_, i) => ({
  name: `person-${i}`,
  entityType: "person",
  observations: [`based in city ${i}`],
}));
const text = JSON.stringify(entities, null, 2);
const call: ReplayCallInput = {
  id: 1,
  tool: "create_entities",
  argsJson: JSON.stringify({ entities }),
  isError: false,
  result: text,
  label: "public",
  blobId: null,
  givenChars: text.length,
  givenTokens: 0,
  generation: 0,
};

describe("replayed echo stubs", () => {
  const tokens = createTokenCounter("o200k_base");
  it("a result equal to its call's argument is a stub under the config's policy, delivered as before with echoStubs off", () => {
    const base = policyFromConfig(defaultConfig());
    const [on] = simulateSession([call], base, tokens);
    expect(on).toMatchObject({ action: "stub" });
    expect(on!.text).toContain("equal to the `entities` argument of this call");
    const [off] = simulateSession([call], applyPolicyFile(base, { dedup: { echoStubs: false } }, "off"), tokens);
    expect(off).toMatchObject({ action: "passthrough", chars: text.length });
  });
});
