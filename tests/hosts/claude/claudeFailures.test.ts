/**
 * A tool that fails in Claude Code reaches no PostToolUse hook, only PostToolUseFailure: with the
 * hooks `spillway connect claude-code` prints, the real CLI's failed Bash command is recorded as a
 * failed call with the error the model got (masked), every hook call keeps the hook request and
 * Spillway's answer as its raw record, and a `spill:` hand-off PreToolUse expanded shows on the call
 * that received it.
 */
import type { Engine } from "../../../core/engine/engine";
import { smallSecrets } from "../../fixtures/secrets/smallSecrets";
import { CLAUDE_VERSION } from "../support/claudeCli";
import { hostRunThenStore, type HostRun } from "./harness";
import { handleId, type Step } from "./policy";
import { seqOutput } from "./projectFiles";

const { values } = smallSecrets(11);
const AWS_KEY = values[12]!;
const FAILING = `echo "building"; echo "AWS_ACCESS_KEY_ID=${AWS_KEY}" >&2; echo "deploy failed: no space left" >&2; exit 3`;
const steps = (): Step[] => [
  () => ({ tool: "Bash", input: { command: FAILING, description: "Deploy" } }),
  () => ({ tool: "Bash", input: { command: "echo all good", description: "Check" } }),
  () => ({ tool: "Bash", input: { command: "seq 1 5000", description: "Numbers" } }),
  (seen) => ({ tool: "mcp__direct__digest", input: { text: `spill:${handleId(seen[2]!.text)}` } }),
];

describe(`Claude Code ${CLAUDE_VERSION}: a failed tool call is recorded through PostToolUseFailure`, () => {
  let r: HostRun;
  let engine: Engine;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ({ r, engine, close } = await hostRunThenStore({ transport: "stdio", steps, checkConfig: false }));
  }, 180_000);
  afterAll(() => close());

  const calls = () => {
    const sessions = engine.reader
      .listSessions({ offset: 0, limit: 10, sort: { by: "createdAt", dir: "asc" } })
      .rows.filter((s) => s.client === "claude-code");
    expect(sessions).toHaveLength(1);
    return engine.reader.timeline(sessions[0]!.id, 0, 50).calls;
  };

  it("the model got Claude Code's error for the failed command", () => {
    const [failed] = r.seen;
    expect(failed).toMatchObject({ tool: "Bash", isError: true });
    expect(failed!.text).toContain("Exit code 3");
    expect(failed!.text).toContain("deploy failed: no space left");
  });

  it("the failed call is in the session's calls with its error text, masked", () => {
    const bash = calls().filter((c) => c.tool === "Bash");
    expect(bash.map((c) => c.outcome)).toEqual(["error", "passthrough", "rescued"]);
    const failed = bash[0]!;
    expect(failed.isError).toBe(true);
    expect(failed.durationMs).not.toBeNull();
    expect(failed.errorText).toContain("deploy failed: no space left");
    const d = engine.reader.callDetail(failed.id, () => null)!;
    expect(d.raw.text).toContain("Exit code 3");
    expect(d.raw.text).toContain("[masked:");
    expect(JSON.stringify(d)).not.toContain(AWS_KEY);
    expect(JSON.parse(d.call.argsJson!).command).toContain("deploy failed");
    expect(engine.reader.session(failed.sessionId)).toMatchObject({ errors: 1 });
  });

  it("each hook call keeps the hook request Claude Code sent and Spillway's answer", () => {
    const [failed, ok] = calls().filter((c) => c.tool === "Bash");
    const raw = (id: number) => engine.reader.callDetail(id, () => null)!.rpc!;
    const f = raw(failed!.id);
    expect(f.kind).toBe("hook");
    expect(JSON.parse(f.request)).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_use_id: expect.stringMatching(/^toolu_/),
      is_interrupt: false,
    });
    expect(f.request).not.toContain(AWS_KEY);
    expect(JSON.parse(f.response!)).toEqual({});
    const o = raw(ok!.id);
    expect(JSON.parse(o.request)).toMatchObject({ hook_event_name: "PostToolUse", tool_response: { stdout: "all good" } });
    expect(JSON.parse(o.response!)).toEqual({});
  });

  it("a spill: hand-off expanded by PreToolUse shows on the call that received it, with both hook exchanges", () => {
    // Claude Code passes Bash output on without its last newline.
    const whole = seqOutput(5_000).trimEnd();
    expect(r.seen[3]!.text).toMatch(new RegExp(`^length=${whole.length} sha256=`));
    const digest = calls().find((c) => c.tool === "mcp__direct__digest")!;
    expect(digest.received).toMatchObject({ expanded: 1, denied: 0, chars: whole.length });
    const raw = engine.reader.callDetail(digest.id, () => null)!.rpc!;
    expect(JSON.parse(raw.upstreamRequest!)).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "mcp__direct__digest" });
    expect(JSON.parse(raw.upstreamResponse!).hookSpecificOutput.updatedInput.text).toMatch(/^1\n2\n3\n/);
    expect(JSON.parse(raw.request)).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "mcp__direct__digest" });
  });
});
