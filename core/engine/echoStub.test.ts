import { parseConfig } from "../config/config";
import { createEngine } from "./engine";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";

/** What server-memory's create_entities answers: the new entities, pretty-printed. */
const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: `person-${i}`,
    entityType: "person",
    observations: [`based in city ${i}`, `joined in ${2000 + i}`],
  }));

describe("echo stubs", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const make = (cfg: unknown = {}) =>
    createEngine({ home: home.path, config: parseConfig(cfg), clock: new FakeClock(), logger: memoryLogger() });

  it("a result that repeats the call's own argument reaches the model as a one-line stub; recall gives the exact bytes", async () => {
    const e = make();
    const entities = people(40);
    const text = JSON.stringify(entities, null, 2);
    expect(text.length).toBeGreaterThan(2_000);
    const r = e.transformToolResult({ sessionId: "s", tool: "create_entities", args: { entities }, text });
    expect(r).toMatchObject({ outcome: "stubbed", reason: "echo" });
    expect(r.text).toContain("equal to the `entities` argument of this call");
    expect(r.text.length).toBeLessThan(250);
    expect(e.recall("s", r.blobId!).text).toBe(text);
    await e.close();
  });

  it("a large echo gets the stub rather than a handle; a result that differs, an error, or echoStubs off is delivered as before", async () => {
    const e = make();
    const many = people(400);
    const big = e.transformToolResult({
      sessionId: "s",
      tool: "create_entities",
      args: { entities: many },
      text: JSON.stringify(many, null, 2),
    });
    expect(big).toMatchObject({ outcome: "stubbed", reason: "echo" });
    const entities = people(40);
    const partial = JSON.stringify(entities.slice(1), null, 2);
    expect(e.transformToolResult({ sessionId: "s", tool: "create_entities", args: { entities }, text: partial }).outcome).toBe(
      "passthrough",
    );
    const text = JSON.stringify(entities, null, 2);
    expect(e.transformToolResult({ sessionId: "s", tool: "create_entities", args: { entities }, text, isError: true }).outcome).toBe(
      "passthrough",
    );
    await e.close();
    const off = make({ dedup: { echoStubs: false } });
    // Another session: in "s" the partial result above would make this one a near-duplicate.
    expect(off.transformToolResult({ sessionId: "u", tool: "create_entities", args: { entities }, text }).outcome).toBe("passthrough");
    await off.close();
  });
});
