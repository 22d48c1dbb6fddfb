/**
 * spill: expansion in `claude -p` under Claude Code's own permission checks (no
 * --dangerously-skip-permissions): the PreToolUse hook rewrites the input without deciding, so a
 * tool the user's rules allow gets the whole stored result, and a tool they do not allow is still
 * refused. (With "ask" both were refused; with "allow" both would run.)
 */
import { CLAUDE_VERSION } from "../support/claudeCli";
import { hostRun, type HostRun } from "./harness";
import { handleId, type Step } from "./policy";
import { serviceLog } from "./projectFiles";
import { sha } from "./steps";

const steps = (_upstream: string, logFile: string): Step[] => [
  () => ({ tool: "Read", input: { file_path: logFile } }),
  (seen) => ({ tool: "mcp__direct__digest", input: { text: `spill:${handleId(seen[0]!.text)}` } }),
];

describe(`Claude Code ${CLAUDE_VERSION}: spill: through PreToolUse leaves permissions to Claude Code`, () => {
  const runs: HostRun[] = [];
  afterAll(async () => {
    for (const r of runs) await r.close();
  });

  it("a tool the user's rules allow receives the whole stored result", async () => {
    const r = await hostRun({
      transport: "stdio",
      steps,
      bypass: false,
      checkConfig: false,
      args: ["--allowedTools", "mcp__direct__digest"],
    });
    runs.push(r);
    expect(r.claude.code, r.claude.stderr).toBe(0);
    const [read, digest] = r.seen;
    expect(read!.text).toMatch(/stored as [0-9a-f]{12} — 96,227 chars/);
    expect(digest!.text).toBe(`length=${serviceLog().length} sha256=${sha(serviceLog())}`);
    expect(r.claude.result?.permission_denials).toEqual([]);
  }, 120_000);

  it("a tool they do not allow is refused as it would be without Spillway, not approved by the hook", async () => {
    const r = await hostRun({ transport: "stdio", steps, bypass: false, checkConfig: false });
    runs.push(r);
    const [, digest] = r.seen;
    expect(digest!.isError).toBe(true);
    expect(digest!.text).not.toMatch(/^length=/);
    expect(r.claude.result?.permission_denials.map((d: { tool_name: string }) => d.tool_name)).toEqual(["mcp__direct__digest"]);
  }, 120_000);
});
