// The Overview's hours, from a real store: calls at 07:10 and twice at 09:05 (the second a stub)
// fall in their UTC hours, hours without calls are empty, and the hours add up to the total.
import { parseConfig } from "../../config/config";
import { createEngine } from "../../engine/engine";
import { FakeClock, memoryLogger } from "../../runtime";
import { tempHome } from "../../../tests/helpers/tempHome";
import { hourKey, hourlySavings } from "./hourlySavings";

const HOUR = 3_600_000;
const log = (seed: string) => Array.from({ length: 600 }, (_, i) => `[${seed}] step ${i}: compiled src/m${i}.ts`).join("\n");

describe("hourly savings", () => {
  it("puts each call in its UTC hour and adds up to the ledger's total", async () => {
    const home = tempHome();
    const clock = new FakeClock(Date.UTC(2026, 2, 14, 7, 10));
    const engine = createEngine({ home: home.path, config: parseConfig({}), clock, logger: memoryLogger() });
    try {
      expect(engine.transformToolResult({ sessionId: "s", tool: "build", text: log("a") }).outcome).toBe("rescued");
      clock.set(Date.UTC(2026, 2, 14, 9, 5));
      expect(engine.transformToolResult({ sessionId: "s", tool: "test", text: log("b") }).outcome).toBe("rescued");
      expect(engine.transformToolResult({ sessionId: "s", tool: "test", text: log("b") }).outcome).toBe("stubbed");
      await engine.idle();
      const now = Date.UTC(2026, 2, 14, 9, 30);
      const h = hourlySavings((from) => engine.savings("hour", from), now, 4);
      expect(h.map((x) => x.key)).toEqual(["2026-03-14T06", "2026-03-14T07", "2026-03-14T08", "2026-03-14T09"]);
      expect(h.map((x) => x.calls)).toEqual([0, 1, 0, 2]);
      const total = engine.savings("total")[0]!;
      expect(h.reduce((a, x) => a + x.netTokens, 0)).toBe(total.netTokens);
      expect(h[1]!.netTokens).toBeGreaterThan(0);
      expect(h[3]!.stubbed).toBe(1);
      expect(hourKey(now + HOUR)).toBe("2026-03-14T10");
    } finally {
      await engine.close();
      home.cleanup();
    }
  });
});
