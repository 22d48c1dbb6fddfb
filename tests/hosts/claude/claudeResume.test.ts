/**
 * `claude --resume` of a session whose Spillway MCP server is gone: the first run had Spillway's
 * stdio server (its outputs became handles the model could read with rescuer_fetch); the user then
 * removed the server (or it failed to start) and resumed. The hooks still run, but the model has no
 * rescuer_fetch any more, so the resumed run's large output must reach it whole.
 */
import { parseConfig } from "../../../core/config/config";
import { createEngine, type Engine } from "../../../core/engine/engine";
import { memoryLogger } from "../../../core/runtime";
import { CLAUDE_BIN, CLAUDE_VERSION, runClaude, type ClaudeRun } from "../support/claudeCli";
import { hostRun, type HostRun } from "./harness";
import type { Step } from "./policy";
import { sh } from "./printedConfig";
import { seqOutput } from "./projectFiles";

let resumed = false;
const steps = (): Step[] => [
  // 13,893 chars: over the rescue threshold, under Claude Code's own 30,000-char cut.
  () => ({ tool: "Bash", input: { command: "seq 1 3000", description: "Numbers" } }),
  // Only in the resumed run.
  () => (resumed ? { tool: "Bash", input: { command: "seq 1 3100", description: "More numbers" } } : null),
];

describe(`Claude Code ${CLAUDE_VERSION}: a session resumed without Spillway's MCP server`, () => {
  let r: HostRun;
  let second: ClaudeRun;
  let engine: Engine;
  beforeAll(async () => {
    r = await hostRun({ transport: "stdio", steps, checkConfig: false });
    if (r.claude.code !== 0) throw new Error(`claude exited with ${r.claude.code}: ${r.claude.stderr}`);
    await sh(`${CLAUDE_BIN} mcp remove spillway --scope user`, r.env, r.home.project);
    resumed = true;
    const sessionId = r.claude.init!.session_id as string;
    second = await runClaude({ home: r.home, env: r.env, prompt: "Go on.", args: ["--resume", sessionId] });
    if (second.code !== 0) throw new Error(`claude --resume exited with ${second.code}: ${second.stderr}`);
    await r.serve!.stop();
    engine = createEngine({ home: r.spillwayHome, config: parseConfig({}), logger: memoryLogger() });
  }, 240_000);
  afterAll(async () => {
    await engine?.close();
    await r?.close();
  });

  const mainRequests = () => r.requests.filter((q) => (q.body.tools ?? []).some((t) => t.name === "Bash"));

  it("the first run's model had rescuer_fetch and got a handle; the resumed run's model has no Spillway tool", () => {
    const [first] = mainRequests();
    expect(first!.body.tools!.some((t) => /rescuer_fetch/.test(t.name))).toBe(true);
    const last = mainRequests().at(-1)!;
    expect(last.body.tools!.some((t) => /rescuer_fetch|recall_result/.test(t.name))).toBe(false);
    expect(second.init!.session_id).toBe(r.claude.init!.session_id);
  });

  it("the resumed run's output reaches the model whole, and is recorded as delivered whole with the reason", () => {
    const last = mainRequests().at(-1)!;
    const texts = JSON.stringify(last.body.messages);
    expect(texts).toMatch(/PREVIEW, NOT the full output/);
    // The whole of `seq 1 3100`, not a preview (a failure here would print 40 KB, so a flag).
    expect(texts.includes(JSON.stringify(seqOutput(3100).trimEnd()).slice(1, -1)), "the resumed output, whole").toBe(true);
    const bash = engine.reader.timeline(r.claude.init!.session_id as string, 0, 50).calls.filter((c) => c.tool === "Bash");
    expect(bash.map((c) => [c.outcome, c.reason])).toEqual([
      ["rescued", null],
      ["passthrough", "no_spillway_tools"],
    ]);
  });
});
