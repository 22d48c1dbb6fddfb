import { BIG_ARGS, nextAction, type ToolRef, type TurnView } from "./policy";

const tool = (base: string): ToolRef => ({ call: `mcp_x_${base}`, base });
const WITH = [tool("big_log"), tool("digest"), tool("rescuer_fetch"), tool("recall_result")];
const result = (text: string) => ({ tool: "t", parts: [text], text });
const HANDLE =
  '[spillway: output of big_log stored as 0123456789ab — 20,542 chars]\nThis is a PREVIEW, NOT the full output.\nrescuer_fetch(id="0123456789ab", mode=…)';
const STUB =
  '[spillway: big_log returned the same 20,542 chars as an earlier call, already in your context. To see it again: recall_result(result_id="0123456789ab").]';

const steps = (tools: ToolRef[], answers: string[]) => {
  const taken: string[] = [];
  const view: TurnView = { tools, results: [] };
  for (;;) {
    const a = nextAction(view);
    taken.push(a.step);
    if (a.type !== "call") return { taken, last: a };
    view.results.push(result(answers[view.results.length] ?? "ok"));
  }
};

describe("the scripted policy", () => {
  it("with Spillway: big call, fetch from the handle, repeat, recall the stub, deliver by spill: reference", () => {
    const { taken } = steps(WITH, [HANDLE, "L13: …", STUB, "the log", "length=1"]);
    expect(taken).toEqual(["big", "fetch", "repeat", "recall", "deliver", "final"]);
    const view: TurnView = { tools: WITH, results: [HANDLE, "L13", STUB, "the log"].map(result) };
    expect(nextAction(view)).toMatchObject({ type: "call", tool: { base: "digest" }, args: { text: "spill:0123456789ab" } });
    expect(nextAction({ tools: WITH, results: [] })).toMatchObject({ args: BIG_ARGS });
  });

  it("without Spillway: the same calls, and the content goes to the other tool by value", () => {
    const { taken } = steps([tool("big_log"), tool("digest")], ["the whole log", "the whole log", "length=13"]);
    expect(taken).toEqual(["big", "repeat", "deliver", "final"]);
    expect(nextAction({ tools: WITH, results: [result("the whole log"), result("the whole log")] })).toMatchObject({
      args: { text: "the whole log" },
    });
  });

  it("asks the host's tool search first when the tools are deferred, and says when it is stuck", () => {
    expect(nextAction({ tools: [], results: [], discoverable: true })).toMatchObject({ type: "discover" });
    expect(nextAction({ tools: [], results: [] })).toMatchObject({ type: "stuck" });
  });
});
