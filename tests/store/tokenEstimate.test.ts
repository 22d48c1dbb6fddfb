// A big result's token count is estimated from a sample (issue 12: a 50 MB rescue once cost 81 s
// of CPU to count), and every figure that holds such a count says so where a user reads it: the
// savings rows, the session summary, the call row, and `spillway status` (a real CLI process).
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { EXACT_TOKEN_MAX_CHARS, createTokenCounter } from "../../core/savings/tokens";
import { ESTIMATE_MARK, ESTIMATE_NOTE } from "../../core/vocabulary";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

const log = (lines: number, tag: string) =>
  Array.from(
    { length: lines },
    (_, i) => `2026-11-30T10:00:${i % 60}Z INFO ${tag} worker-${i % 8} built src/pkg${i % 97}/file${i}.ts in ${i % 900} ms`,
  ).join("\n");

describe("estimated token counts of big results", () => {
  it("are close to the exact count, and marked as estimates in the ledger, the inspector's rows and the CLI", async () => {
    const home = tempHome();
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    const big = log(8_000, "big");
    const small = log(300, "small");
    expect(big.length).toBeGreaterThan(EXACT_TOKEN_MAX_CHARS);
    expect(small.length).toBeLessThan(EXACT_TOKEN_MAX_CHARS);
    const b = engine.transformToolResult({ sessionId: "s1", tool: "build", text: big });
    const s = engine.transformToolResult({ sessionId: "s1", tool: "build", text: small });
    expect([b.outcome, s.outcome]).toEqual(["rescued", "rescued"]);
    await engine.idle();

    const exact = createTokenCounter().count(big);
    const total = engine.savings("total")[0]!;
    expect(total.estimatedTokenCounts).toBe(1);
    expect(total.pendingTokenCounts).toBe(0);
    const smallTokens = createTokenCounter().count(small);
    // within 3 % of the exact count of a log this uniform
    expect(Math.abs(total.returnedTokens - smallTokens - exact)).toBeLessThan(exact * 0.03);
    expect(engine.reader.session("s1")!.estimatedTokenCounts).toBe(1);
    const rows = engine.reader.timeline("s1", 0, 10).calls;
    expect(rows.map((c) => [c.returnedChars, c.tokensEstimated])).toEqual([
      [big.length, true],
      [small.length, false],
    ]);
    expect(rows[1]!.returnedTokens).toBe(smallTokens);
    await engine.close();

    const status = await runCli(home.path, "status");
    expect(status.code).toBe(0);
    expect(status.out).toMatch(new RegExp(`saved +${ESTIMATE_MARK}[\\d,]+ tokens`));
    expect(status.out).toContain(`token counts of 1 big result ${ESTIMATE_NOTE}`);
    home.cleanup();
  });

  it("are not marked when every count is exact", async () => {
    const home = tempHome();
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    engine.transformToolResult({ sessionId: "s1", tool: "build", text: log(300, "small") });
    await engine.idle();
    expect(engine.savings("total")[0]!.estimatedTokenCounts).toBe(0);
    await engine.close();
    const status = await runCli(home.path, "status");
    expect(status.out).toMatch(/saved +[\d,]+ tokens/);
    expect(status.out).not.toContain(ESTIMATE_MARK);
    home.cleanup();
  });
});
