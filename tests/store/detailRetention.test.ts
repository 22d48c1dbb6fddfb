// `spillway doctor` and `spillway sweep`, the real CLI, on a store whose calls are 40 days old:
// doctor says how much old call detail a sweep would remove and how big the index is, the sweep
// removes it and says so, and the calls' figures are what they were.
import { createEngine } from "../../core/engine/engine";
import { FakeClock, memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

const DAY = 86_400_000;

describe("old call detail, from the command line", () => {
  it("doctor counts what is due and the index's size; sweep removes it and reports it", async () => {
    const home = tempHome();
    const clock = new FakeClock(Date.now() - 40 * DAY);
    const engine = createEngine({ home: home.path, clock, logger: memoryLogger() });
    for (let i = 0; i < 12; i++) {
      const text = `report ${i}: ` + "all 214 tests passed in 3.1 s\n".repeat(i % 4 === 0 ? 600 : 20);
      const r = engine.transformToolResult({ sessionId: "ci", tool: "run_tests", server: "ci", args: { suite: i }, text });
      engine.noteCall(r.callId!, {
        rpc: { request: { method: "tools/call", params: { name: "run_tests" } }, response: { result: { text } } },
      });
    }
    await engine.idle();
    const savings = engine.savings("total");
    await engine.close();

    const before = await runCli(home.path, "doctor", "--quick");
    expect(before.out).toMatch(
      /^ok\s+index\s+quick_check ok, \d+ live blobs; [\d.]+ (KB|MB) \([\d.]+ (B|KB|MB) of it free pages, reused before the file grows\)$/m,
    );
    expect(before.out).toMatch(/^ok\s+sweep\s+dry run: .*detail of 12 calls older than 30 days to remove$/m);

    const swept = await runCli(home.path, "sweep");
    expect(swept.code).toBe(0);
    expect(swept.out).toMatch(
      /detail of 12 calls and 0 reads older than 30 days removed; store .*; index [\d.]+ (KB|MB) \([\d.]+ (KB|MB) free, reused before it grows\)/,
    );
    expect((await runCli(home.path, "doctor", "--quick")).out).toMatch(/dry run: .*detail of 0 calls older than 30 days to remove/);

    const after = createEngine({ home: home.path, logger: memoryLogger() });
    expect(after.savings("total")).toEqual(savings);
    const first = after.reader.timeline("ci", 0, 1).calls[0]!;
    expect(after.reader.callDetail(first.id, () => null)).toMatchObject({ rpc: null, detailRemovedAt: expect.any(Number) });
    await after.close();
    home.cleanup();
  });
});
