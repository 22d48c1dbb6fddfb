/**
 * The official conformance suite's client scenarios against Spillway as the MCP client it is to
 * every upstream: the suite runs its test server, tests/conformance/upstreamClient.ts makes that
 * server the upstream of a real `spillway mcp` and drives it as an agent would. The OAuth scenarios
 * are not run: Spillway sends an upstream the headers its entry gives and does no OAuth flow
 * (README, "Conformance").
 */
import { join } from "node:path";
import { ROOT } from "../mcp/helpers/setup";
import { runClientScenario } from "./suite";

// The suite runs the command in its output folder: tsx by path.
const COMMAND = `${process.execPath} --import ${join(ROOT, "node_modules/tsx/dist/loader.mjs")} ${join(ROOT, "tests/conformance/upstreamClient.ts")}`;

describe("the MCP conformance suite's client scenarios, against Spillway's upstream client", () => {
  it.each(["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"])(
    "%s passes",
    async (scenario) => {
      const run = await runClientScenario(scenario, COMMAND);
      expect(run.failed.get(scenario) ?? []).toEqual([]);
      expect([...run.passed]).toEqual([scenario]);
      // Passed on what it checked, not for want of a client that ran.
      expect(run.successes.get(scenario)!.length).toBeGreaterThan(0);
    },
    120_000,
  );
});
