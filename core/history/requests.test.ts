import { planRequests } from "./requests";
import type { HistoryItem } from "./types";

const text = (dir: "input" | "output", t: string): HistoryItem => ({ type: "text", dir, text: t, ts: 0 });
const call = (id: string): HistoryItem => ({ type: "call", callId: id, tool: "t", server: null, args: { id }, ts: 0 });
const result = (id: string): HistoryItem => ({
  type: "result",
  callId: id,
  given: id,
  result: id,
  isError: false,
  hostCut: null,
  persistedPath: null,
  persistedMissing: false,
  ts: 0,
});

describe("requests of a conversation", () => {
  it("each run of model output is one request; parallel calls share one; a result goes out in the next request", () => {
    const plan = planRequests([
      text("input", "hi"),
      text("output", "let me look"),
      call("a"),
      call("b"),
      result("a"),
      result("b"),
      call("c"),
      result("c"),
      text("output", "done"),
    ]);
    expect(plan.requests.map((r) => r.texts)).toEqual([["hi"], ["let me look", 't {"id":"a"}', 't {"id":"b"}'], ['t {"id":"c"}']]);
    expect(plan.calls.map((c) => [c.call.callId, c.requestSeq])).toEqual([
      ["a", 1],
      ["b", 1],
      ["c", 2],
    ]);
  });

  it("a compaction starts the next request over; a call with no result and a result with no request are counted apart", () => {
    const plan = planRequests([
      text("input", "hi"),
      call("a"),
      result("a"),
      text("output", "ok"),
      { type: "compact", ts: 0 },
      text("input", "summary"),
      call("b"),
      result("b"),
      call("c"),
    ]);
    expect(plan.requests.map((r) => [r.reset, r.texts])).toEqual([
      [false, ["hi"]],
      [false, ['t {"id":"a"}']],
      [true, ["summary"]],
      [false, ['t {"id":"b"}']],
    ]);
    expect(plan.unanswered).toBe(1);
    const tail = planRequests([text("input", "hi"), call("a"), result("a")]);
    expect(tail.calls[0]!.requestSeq).toBeNull();
  });
});
