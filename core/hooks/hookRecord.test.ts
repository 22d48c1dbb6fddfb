// The audit trail of Claude Code hook calls, from the payloads Claude Code 2.1.197 really sent
// (tests/fixtures/claude-code): a PostToolUseFailure is a failed call with its error (masked), and
// each recorded hook call keeps the hook request and Spillway's answer as its raw record.
import { readFileSync } from "node:fs";
import { parseConfig } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { smallSecrets } from "../../tests/fixtures/secrets/smallSecrets";
import { tempHome } from "../../tests/helpers/tempHome";
import { handleClaudeCodeHook } from "./claudeCode";
import { transform } from "./genericApi";
import { PreToolUses } from "./preToolUses";

type Payload = Record<string, any>;
const fixture = (name: string): Payload =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/claude-code/${name}.json`, import.meta.url), "utf8"));
const SESSION = "00000000-0000-4000-8000-000000000000";
const { values } = smallSecrets(3);
const TOKEN = values[13]!;

describe("Claude Code hook calls in the audit trail", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  beforeEach(() => {
    home = tempHome();
    engine = createEngine({ home: home.path, config: parseConfig({ rescue: { thresholdChars: 2_000 } }), logger: memoryLogger() });
    // As the stdio server Claude Code starts for the session records it: the model has Spillway's tools.
    engine.touchSession(SESSION, "claude-code 2.1.197", true);
  });
  afterEach(async () => {
    await engine.close();
    home.cleanup();
  });
  const calls = () => engine.reader.timeline(SESSION, 0, 50).calls;
  const detail = (id: number) => engine.reader.callDetail(id, () => null)!;

  it("PostToolUseFailure: the failed command is a failed call with the error Claude Code gave the model, masked", async () => {
    const p = fixture("failure-bash");
    p.error = `${p.error}\ngit push https://${TOKEN}@github.com/acme/app.git`;
    p.duration_ms = 412;
    expect(await handleClaudeCodeHook(engine, p)).toEqual({});
    const [c] = calls();
    expect(c).toMatchObject({ tool: "Bash", server: null, outcome: "error", isError: true, durationMs: 412 });
    expect(c!.errorText).toMatch(/^Exit code 3\nbuilding\ndeploy failed: no space left\n/);
    const d = detail(c!.id);
    expect(d.raw.text).toContain("[masked:");
    expect(JSON.parse(d.call.argsJson!)).toEqual(p.tool_input);
    expect(d.rpc!.kind).toBe("hook");
    expect(JSON.parse(d.rpc!.request)).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_use_id: "toolu_01capture" });
    expect(JSON.parse(d.rpc!.response!)).toEqual({});
    expect(JSON.stringify(d)).not.toContain(TOKEN);
    expect(engine.reader.session(SESSION)).toMatchObject({ calls: 1, errors: 1, client: "claude-code" });
  });

  it("an MCP tool that failed keeps its server; Spillway's own tools are left to the proxy's record", async () => {
    const base = fixture("failure-bash");
    await handleClaudeCodeHook(engine, {
      ...base,
      tool_name: "mcp__github__create_issue",
      tool_input: { title: "x" },
      error: "MCP error -32603: boom",
    });
    await handleClaudeCodeHook(engine, { ...base, tool_name: "mcp__spillway__rescuer_fetch", error: "bad id" });
    await handleClaudeCodeHook(engine, { ...base, tool_name: undefined });
    expect(calls().map((c) => [c.tool, c.server, c.errorText])).toEqual([
      ["mcp__github__create_issue", "github", "MCP error -32603: boom"],
    ]);
  });

  it("PostToolUse: the call keeps the hook request and the answer Spillway gave, both masked and cut", async () => {
    const small = fixture("post-bash");
    small.tool_response.stdout = `deployed with ${TOKEN}`;
    const answer = (await handleClaudeCodeHook(engine, small)) as Payload;
    expect(answer.hookSpecificOutput.updatedToolOutput.stdout).toBe("deployed with [masked:github_token]");
    const big = fixture("post-bash");
    big.tool_response.stdout = "line of output\n".repeat(3_000);
    const rescued = (await handleClaudeCodeHook(engine, big)) as Payload;
    const [masked, stored] = calls();
    const m = detail(masked!.id).rpc!;
    expect(m.kind).toBe("hook");
    expect(JSON.parse(m.request).tool_response.stdout).toBe("deployed with [masked:github_token]");
    expect(JSON.parse(m.response!)).toEqual(answer);
    const s = detail(stored!.id).rpc!;
    expect(stored!.outcome).toBe("rescued");
    expect(JSON.parse(s.response!)).toEqual(rescued);
    // The whole output is the blob: the raw record keeps its head.
    expect(JSON.parse(s.request).tool_response.stdout).toMatch(/^line of output\n[\s\S]*… \[29,000 more chars\]$/);
  });

  it("a spill: reference PreToolUse expanded is tied to the call that received it, both hook exchanges in its raw record", async () => {
    const pre = new PreToolUses();
    const base = fixture("post-bash");
    base.tool_response.stdout = "line of output\n".repeat(3_000);
    const stored = (await handleClaudeCodeHook(engine, base, { preToolUses: pre })) as Payload;
    const id = /stored as ([0-9a-f]{12})/.exec(stored.hookSpecificOutput.updatedToolOutput.stdout)![1]!;
    const use = {
      ...fixture("pre-bash"),
      tool_name: "mcp__direct__digest",
      tool_input: { text: `spill:${id}` },
      tool_use_id: "toolu_digest",
    };
    const expanded = (await handleClaudeCodeHook(engine, use, { preToolUses: pre })) as Payload;
    expect(expanded.hookSpecificOutput.updatedInput.text).toHaveLength(45_000);
    expect(pre.size).toBe(1);
    await handleClaudeCodeHook(
      engine,
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "mcp__direct__digest",
        tool_input: expanded.hookSpecificOutput.updatedInput,
        tool_use_id: "toolu_digest",
        tool_response: [{ type: "text", text: "length=45000" }],
      },
      { preToolUses: pre },
    );
    expect(pre.size).toBe(0);
    const digest = calls().find((c) => c.tool === "mcp__direct__digest")!;
    expect(digest.received).toMatchObject({ expanded: 1, denied: 0, chars: 45_000 });
    const raw = detail(digest.id).rpc!;
    expect(JSON.parse(raw.upstreamRequest!)).toMatchObject({ hook_event_name: "PreToolUse", tool_input: { text: `spill:${id}` } });
    expect(raw.upstreamResponse).toContain('"updatedInput"');
    // The expanded text is the blob: the record keeps its head.
    expect(raw.upstreamResponse!.length).toBeLessThan(5_000);
    // The call's arguments are the ones the model wrote, not the 45,000 chars Claude Code reports after the expansion.
    expect(JSON.parse(detail(digest.id).call.argsJson!)).toEqual({ text: `spill:${id}` });
  });

  it("PreToolUse records are bounded in count and chars while their tools run", () => {
    const pre = new PreToolUses(3, 1_000);
    for (let i = 0; i < 5; i++) pre.record(`t${i}`, { request: {}, answer: {}, eventIds: [i] });
    expect(pre.size).toBe(3);
    expect(pre.take("t0")).toBeNull();
    expect(pre.take("t4")!.eventIds).toEqual([4]);
    pre.record("big", { request: "x".repeat(2_000), answer: {}, eventIds: [9] });
    expect(pre.size).toBe(1);
    expect(pre.take("big")!.eventIds).toEqual([9]);
  });

  it("the generic transform hook (a host plugin's) keeps the request and its answer too", () => {
    const answer = transform(engine, {
      session_id: "h-1",
      tool: "terminal",
      args: { command: "make" },
      text: "built\n".repeat(1_000),
      client: "hermes",
    });
    const [c] = engine.reader.timeline("h-1", 0, 10).calls;
    const raw = detail(c!.id).rpc!;
    expect(raw.kind).toBe("hook");
    expect(JSON.parse(raw.request)).toMatchObject({ session_id: "h-1", tool: "terminal", args: { command: "make" } });
    expect(JSON.parse(raw.response!)).toEqual(answer);
    expect(answer.outcome).toBe("rescued");
  });
});
