import { join } from "node:path";
import { createEngine, type Engine } from "../engine/engine";
import { callText } from "../history/requests";
import { AGENT_SOURCES, listSessionFiles } from "../history/sources";
import type { HistoryItem, HistorySession } from "../history/types";
import { replayCsv, replayMarkdown } from "../replay/export";
import { applyPolicyFile, policyFromConfig } from "../replay/policy";
import { FakeClock, memoryLogger } from "../runtime";
import { createTokenCounter } from "../savings/tokens";
import { HISTORY_AGENTS, type HistoryAgent } from "../vocabulary";
import { tempHome } from "../../tests/helpers/tempHome";
import { FIXTURE_PATHS, OTHER_RUN } from "../../tests/fixtures/history/fixtures";
import { importHistory } from "./importRun";
import { replayHistory, type ReplayReport } from "./replayRun";

let home: ReturnType<typeof tempHome>;
let engine: Engine;
beforeAll(async () => {
  home = tempHome("spillway-replay-");
  engine = createEngine({ home: home.path, clock: new FakeClock(), logger: memoryLogger() });
  for (const agent of HISTORY_AGENTS) await importHistory(engine, { agent, path: FIXTURE_PATHS[agent] });
  await engine.idle();
});
afterAll(async () => {
  await engine.close();
  home.cleanup();
});

const tokens = createTokenCounter("o200k_base");

/** The fixture's session, read straight from the agent's file (not from the store). */
async function parsed(agent: HistoryAgent): Promise<HistorySession> {
  const [f] = listSessionFiles(agent, FIXTURE_PATHS[agent]);
  for await (const s of AGENT_SOURCES[agent].read(f!.file, () => {})) return s;
  throw new Error("no session");
}

/**
 * Every request of a session rebuilt whole and counted directly: each time the model produced
 * output it was sent everything since the last compaction, results as `delivered` says.
 */
function recount(items: HistoryItem[], delivered: (callId: string, given: string) => string): number[] {
  const out: number[] = [];
  let prompt: string[] = [];
  let inOutput = false;
  for (const it of items) {
    if (it.type === "compact") {
      prompt = [];
      inOutput = false;
      continue;
    }
    const output = it.type === "call" || (it.type === "text" && it.dir === "output");
    if (output && !inOutput) out.push(prompt.reduce((n, p) => n + tokens.count(p), 0));
    inOutput = output;
    if (it.type === "text") prompt.push(it.text);
    else if (it.type === "call") prompt.push(callText(it));
    else prompt.push(delivered(it.callId, it.given));
  }
  return out;
}

const twoPolicies = () => {
  const base = policyFromConfig(engine.config);
  return [
    base,
    applyPolicyFile(
      base,
      {
        name: "4k threshold, no near-dup",
        rescue: { thresholdChars: 4_000 },
        excerpt: { maxChars: 2_000 },
        dedup: { nearDuplicates: false },
      },
      "b",
    ),
  ];
};

describe("the replay lab on the real CLIs' histories", () => {
  let report: ReplayReport;
  beforeAll(async () => {
    report = await replayHistory(engine, { scope: {}, policies: twoPolicies(), includeText: true });
  });

  it("replayed prompt tokens, per request and in total, equal a direct recount of the same requests", async () => {
    for (const agent of HISTORY_AGENTS) {
      const s = await parsed(agent);
      const r = report.sessions.find((x) => x.agent === agent)!;
      const callIds = s.items.flatMap((it) => (it.type === "result" ? [it.callId] : []));
      // As it happened: each result as the model got it.
      expect(
        r.requests.map((q) => q.asHappened),
        agent,
      ).toEqual(recount(s.items, (_, given) => given));
      // Under each policy: the handle, stub or near-duplicate stub, or the result as the model got it.
      report.policies.forEach((_, k) => {
        const byCall = new Map(callIds.map((id, i) => [id, r.calls[i]!.policies[k]!]));
        const direct = recount(s.items, (id, given) => byCall.get(id)!.text ?? given);
        expect(
          r.requests.map((q) => q.policies[k]),
          `${agent} policy ${k}`,
        ).toEqual(direct);
        expect(r.promptTokens.policies[k]).toBe(direct.reduce((a, b) => a + b, 0));
      });
    }
    expect(report.totals.asHappened).toBe(report.sessions.reduce((a, s) => a + s.requests.reduce((b, q) => b + q.asHappened, 0), 0));
  });

  it("per call: a handle for the big result, a stub for its exact repeat, a near-duplicate stub for the second test run, and savings per tool that add up", () => {
    const codex = report.sessions.find((x) => x.agent === "codex")!;
    const big = codex.calls.filter((c) => c.tool === "mcp__fx__big_log");
    expect(big.map((c) => c.policies[0]!.action)).toEqual(["handle", "stub", "handle"]);
    expect(big[0]!.policies[0]!.text).toContain(`${OTHER_RUN.big.length.toLocaleString("en-US")} chars`);
    const runs = codex.calls.filter((c) => c.tool === "mcp__fx__run_tests");
    // Under the rescue threshold: the first report as it came, the second as the lines that changed.
    expect(runs.map((c) => c.policies[0]!.action)).toEqual(["passthrough", "near_stub"]);
    expect(runs[1]!.policies[0]!.text).toMatch(/the same as this call's earlier result [0-9a-f]{12} except/);
    expect(runs[1]!.policies[0]!.tokens).toBeLessThan(runs[1]!.asHappenedTokens / 2);
    // The second policy has near-duplicates off and a lower threshold: both reports become handles.
    expect(runs.map((c) => c.policies[1]!.action)).toEqual(["handle", "handle"]);
    for (const [k, p] of report.totals.policies.entries()) {
      expect(report.tools.reduce((a, t) => a + t.policies[k]!.saved, 0)).toBe(p.saved);
      expect(p.saved).toBe(report.totals.asHappened - p.promptTokens);
    }
    expect(report.totals.policies[0]!.saved).toBeGreaterThan(0);
  });

  it("the streak guard, dedup and rescue switches change what the model gets", async () => {
    const base = policyFromConfig(engine.config);
    const off = applyPolicyFile(base, { name: "off", rescue: { enabled: false }, dedup: { enabled: false } }, "off");
    const r = await replayHistory(engine, { scope: { agent: "opencode" }, policies: [off] });
    expect(r.totals.policies[0]).toMatchObject({ promptTokens: r.totals.asHappened, saved: 0, handles: 0, stubs: 0 });
    const perTool = applyPolicyFile(base, { name: "big_log untouched", tools: { "fx_*": { rescue: false, dedup: false } } }, "t");
    const t = await replayHistory(engine, { scope: { agent: "opencode" }, policies: [perTool] });
    expect(t.totals.policies[0]!.saved).toBe(0);
  });

  it("one session by id, and an unknown one is a clear error", async () => {
    const id = report.sessions[0]!.id;
    const one = await replayHistory(engine, { scope: { sessionId: id }, policies: twoPolicies() });
    expect(one.sessions.map((s) => s.id)).toEqual([id]);
    await expect(replayHistory(engine, { scope: { sessionId: "import:codex:nope" }, policies: twoPolicies() })).rejects.toThrow(
      /no imported session import:codex:nope/,
    );
  });

  it("exports Markdown and CSV with the same figures", () => {
    const md = replayMarkdown(report);
    expect(md).toContain(`| as it happened | ${report.totals.asHappened.toLocaleString("en-US")} |`);
    for (const t of report.tools) expect(md).toContain(`| ${t.tool} |`);
    const csv = replayCsv(report).trim().split("\n");
    expect(csv).toHaveLength(1 + report.totals.calls);
    const head = csv[0]!.split(",");
    const saved = head.indexOf("current config billed_saved");
    const sum = csv.slice(1).reduce((a, line) => a + Number(line.split(",")[saved]), 0);
    expect(sum).toBe(report.totals.policies[0]!.saved);
  });
});

describe("a replay of an empty store", () => {
  it("has nothing to replay", async () => {
    const h = tempHome();
    const e = createEngine({ home: join(h.path, "s"), logger: memoryLogger() });
    const r = await replayHistory(e, { scope: {}, policies: [policyFromConfig(e.config)] });
    expect(r.totals).toMatchObject({ sessions: 0, asHappened: 0 });
    await e.close();
    h.cleanup();
  });
});
