import { echoedArgument, renderEchoStub } from "./echo";

const entities = [
  { name: "Alice Moreau", entityType: "person", observations: ["based in Lyon", "owns the ledger"] },
  { name: "Hiro Tanaka", entityType: "person", observations: ["based in Osaka"] },
];

describe("echoedArgument", () => {
  it("names the argument a result repeats as JSON, whatever its spacing and key order", () => {
    // server-memory's create_entities answers JSON.stringify(newEntities, null, 2).
    expect(echoedArgument(JSON.stringify(entities, null, 2), { entities })).toBe("entities");
    const reordered = entities.map(({ observations, name, entityType }) => ({ observations, entityType, name }));
    expect(echoedArgument(JSON.stringify(reordered), { entities })).toBe("entities");
    expect(echoedArgument(JSON.stringify({ path: "/a", content: "x" }, null, 1), { path: "/a", content: "x" })).toBe("");
  });

  it("is null for a result that differs in any value, is not JSON, or echoes only a scalar", () => {
    const changed = structuredClone(entities);
    changed[1]!.observations.push("joined in 2024");
    expect(echoedArgument(JSON.stringify(changed, null, 2), { entities })).toBeNull();
    // One entity already existed, so the server returned only the other.
    expect(echoedArgument(JSON.stringify([entities[1]], null, 2), { entities })).toBeNull();
    expect(echoedArgument("[not json", { entities })).toBeNull();
    expect(echoedArgument('"hello"', { message: "hello" })).toBeNull();
    expect(echoedArgument(JSON.stringify(entities), undefined)).toBeNull();
  });

  it("renders a one-line stub naming the argument and how to get the exact text", () => {
    const stub = renderEchoStub({ tool: "create_entities", argument: "entities", id: "3f9a1c2b7d4e", chars: 4_814 });
    expect(stub).not.toContain("\n");
    expect(stub).toContain("create_entities returned 4,814 chars of JSON equal to the `entities` argument of this call");
    expect(stub).toContain('recall_result(result_id="3f9a1c2b7d4e")');
  });
});
