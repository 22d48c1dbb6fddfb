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

describe("replayed calls of Spillway's own tools, as hosts name them in their history", () => {
  const tokens = createTokenCounter("o200k_base");
  const big = Array.from({ length: 3_000 }, (_, i) => `line ${i}: the exact bytes a recall gave back`).join("\n");
  it("pass through under any host's prefix, as a live Spillway never rescues its own answers; a tool of the user's is rescued", () => {
    const policy = policyFromConfig(defaultConfig());
    const names = [
      "recall_result",
      "mcp__spillway__recall_result",
      "mcp_spillway_recall_result",
      "spillway_rescuer_fetch",
      "spillway.rescuer_fetch",
    ];
    const out = simulateSession(
      [...names, "mcp__files__read_text_file"].map((tool, i) => ({
        ...call,
        id: i + 1,
        tool,
        argsJson: JSON.stringify({ i }),
        result: big,
        givenChars: big.length,
      })),
      policy,
      tokens,
    );
    expect(out.map((o) => o.action)).toEqual([...names.map(() => "passthrough"), "handle"]);
  });
});
