import { tempHome } from "../../tests/helpers/tempHome";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { createTokenCounter } from "../savings/tokens";
import { createEngine, engineInternals, type Engine } from "./engine";

function bigLog(lines = 900): string {
  return (
    Array.from({ length: lines }, (_, i) =>
      i === 400 ? "ERROR: disk full on /var" : `step ${i}: compiled module src/mod${i}.ts in ${i % 97} ms`,
    ).join("\n") + "\n"
  );
}

const SECRETS = "deploy\n" + "x".repeat(13_000) + "\nGITHUB_TOKEN=ghp_8fK2mQ9xLp4RtY7wZ3vB6nC1dS5hJ0aEuXoG\n";

describe("the read ledger: every read recorded with what it gave, operators apart", () => {
  let home: ReturnType<typeof tempHome>;
  let e: Engine;
  const make = (cfg: unknown = {}) =>
    (e = createEngine({ home: home.path, config: parseConfig(cfg), clock: new FakeClock(), logger: memoryLogger() }));
  beforeEach(() => (home = tempHome()));
  afterEach(async () => {
    await e.close();
    home.cleanup();
  });
  const eventsOf = (id: string) => e.reader.lineage(id).events;

  it("a fetch by the inspector is marked as the operator's and not counted as the model's", () => {
    make();
    const r = e.transformToolResult({ sessionId: "s", tool: "build", text: bigLog() });
    e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: "ERROR" } });
    const hand = e.fetch({ sessionId: null, operator: "inspector", id: r.blobId, mode: "grep", args: { pattern: "ERROR" } });
    expect(hand.isError).toBe(false);
    expect(e.reader.meta(r.blobId!)!.fetchCount).toBe(1);
    const [model, operator] = eventsOf(r.blobId!);
    expect(model).toMatchObject({ sessionId: "s", data: expect.not.objectContaining({ by: expect.anything() }) });
    expect(operator).toMatchObject({ sessionId: null, data: expect.objectContaining({ by: "inspector" }) });
    expect(e.savings("total")[0]!.pulledChars).toBe(model!.chars);
    expect(e.reader.session("s")!.fetches).toBe(1);
  });

  it("counts each read's tokens after its answer, and the savings subtract them once counted", async () => {
    make();
    const text = bigLog(700);
    const r = e.transformToolResult({ sessionId: "s", tool: "build", text });
    await e.idle();
    // A small answer (counted in a batch) and one over the batch size (counted on its own).
    const grep = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: "ERROR" } });
    const full = e.fetch({ sessionId: "s", id: r.blobId, mode: "full" });
    expect(full.isError).toBe(false);
    expect(full.text.length).toBeGreaterThan(16_384);
    const tokensOf = (a: typeof grep) => e.reader.eventDetail(a.eventId!)!.event.tokens;
    expect([tokensOf(grep), tokensOf(full)]).toEqual([null, null]);
    await e.idle();
    const counter = createTokenCounter();
    const expected = [counter.count(grep.text), counter.count(full.text)];
    expect([tokensOf(grep), tokensOf(full)]).toEqual(expected);
    expect(expected[1]).toBeGreaterThan(1_000);
    expect(e.savings("total")[0]!.pulledTokens).toBe(expected[0]! + expected[1]!);
  });

  it("keeps the answer masked even when the model was given secrets (audit mode), and drops it with the blob", () => {
    make({ sensitivity: { mode: "audit" } });
    const r = e.transformToolResult({ sessionId: "s", tool: "env", text: SECRETS });
    const got = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: "TOKEN" } });
    expect(got.text).toContain("ghp_8fK2");
    const kept = e.reader.eventDetail(got.eventId!)!.event.answer!;
    expect(kept.text).toContain("GITHUB_TOKEN=[masked:github_token]");
    expect(kept.text).not.toContain("ghp_8fK2");
    e.purge(r.blobId!);
    expect(e.reader.eventDetail(got.eventId!)!.event.answer).toBeNull();
    expect(e.reader.eventDetail(got.eventId!)!.event.chars).toBe(got.text.length);
  });

  it("records `full` over the cap and a bad argument as refused reads with their sentence", () => {
    make({ fetch: { fullMaxChars: 5_000 } });
    const r = e.transformToolResult({ sessionId: "s", tool: "build", text: bigLog() });
    const full = e.fetch({ sessionId: "s", id: r.blobId, mode: "full" });
    const noPattern = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep" });
    expect(full.isError && noPattern.isError).toBe(true);
    const [a, b] = eventsOf(r.blobId!);
    expect(a).toMatchObject({ type: "fetch", chars: 0, data: expect.objectContaining({ mode: "full", error: true }) });
    expect(b).toMatchObject({ data: expect.objectContaining({ mode: "grep", error: true }) });
    expect(e.reader.eventDetail(a!.id)!.event.answer!.text).toBe(full.text);
    expect(e.reader.session("s")).toMatchObject({ fetches: 0, errors: 2 });
    expect(e.reader.meta(r.blobId!)!.fetchCount).toBe(0);
  });

  it("counts one compaction once when the host signals it twice, and keeps a turn's prompt masked", () => {
    make();
    e.transformToolResult({ sessionId: "s", tool: "echo", text: "hi" });
    expect(e.compaction("s")).toBe(1);
    expect(e.compaction("s")).toBe(1);
    e.turn("s", "deploy with GITHUB_TOKEN=ghp_8fK2mQ9xLp4RtY7wZ3vB6nC1dS5hJ0aEuXoG please");
    expect(e.compaction("s")).toBe(2);
    const marks = e.reader.timeline("s", 0, 10).marks;
    expect(marks.map((m) => m.type)).toEqual(["compaction", "turn", "compaction"]);
    expect(marks[1]!.data!.prompt).toBe("deploy with GITHUB_TOKEN=[masked:github_token] please");
    expect(e.reader.session("s")!.generation).toBe(2);
  });

  it("masks a bare secret the model used as a grep pattern, in the stored arguments and in the kept answer that echoes it", () => {
    make();
    const secret = "Zq8vR2mK7xLp4NwT9bYc";
    const r = e.transformToolResult({ sessionId: "s", tool: "env", text: bigLog() + `DEPLOY_KEY=${secret}\n` });
    const got = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: secret } });
    const kept = e.reader.eventDetail(got.eventId!)!.event;
    expect(JSON.stringify(kept.data)).not.toContain(secret);
    expect(kept.answer!.text).not.toContain(secret);
    expect(kept.answer!.text).toContain("[masked:");
  });

  it("keeps a 5 MB grep pattern cut to a preview that says how long it was, so one fetch leaves a small row", () => {
    make();
    const r = e.transformToolResult({ sessionId: "s", tool: "build", text: bigLog() });
    const pattern = "x".repeat(5 * 1024 * 1024);
    const got = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern, ignore_case: true } });
    const row = engineInternals(e)
      .store.db.prepare(
        "SELECT length(e.data_json) AS data, COALESCE(length(t.text), 0) AS text FROM events e LEFT JOIN event_texts t ON t.event_id = e.id WHERE e.id = ?",
      )
      .get(got.eventId!) as { data: number; text: number };
    expect(row.data + row.text).toBeLessThan(4_000);
    const data = e.reader.eventDetail(got.eventId!)!.event.data!;
    const kept = data.args as { pattern: string; ignore_case: boolean };
    expect(kept.ignore_case).toBe(true);
    expect(kept.pattern).toBe(`${"x".repeat(300)}… [${(pattern.length - 300).toLocaleString("en-US")} more chars]`);
    expect(data.argsCut).toEqual({ pattern: pattern.length });
    // A short pattern is kept as written, with nothing said about a cut.
    const short = e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: "ERROR" } });
    const plain = e.reader.eventDetail(short.eventId!)!.event.data!;
    expect(plain.args).toEqual({ pattern: "ERROR" });
    expect(plain.argsCut).toBeUndefined();
  });
});
