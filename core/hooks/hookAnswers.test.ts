// Hook answers leave through the model's exit: a small pass-through holding a secret is answered
// with its masked text (Claude Code PostToolUse, the generic transform), in the result's shape.
import { parseConfig, type ConfigInput } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { smallSecrets } from "../../tests/fixtures/secrets/smallSecrets";
import { tempHome } from "../../tests/helpers/tempHome";
import { handleClaudeCodeHook } from "./claudeCode";
import { transform } from "./genericApi";

const { lines, values } = smallSecrets(5);
const leaks = (v: unknown) => values.filter((s) => JSON.stringify(v).includes(s));

describe("hook answers", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  const make = (cfg: ConfigInput = {}) => (engine = createEngine({ home: home.path, config: parseConfig(cfg), logger: memoryLogger() }));
  beforeEach(() => (home = tempHome()));
  afterEach(async () => {
    await engine.close();
    home.cleanup();
  });
  const post = async (tool_name: string, tool_response: unknown) =>
    (await handleClaudeCodeHook(engine, {
      session_id: "cc-1",
      hook_event_name: "PostToolUse",
      tool_name,
      tool_input: { command: "env" },
      tool_response,
    })) as {
      hookSpecificOutput?: { updatedToolOutput?: { stdout: string }; updatedMCPToolOutput?: unknown };
    };

  it("Claude Code: a built-in tool's small output comes back masked, in the tool's own shape", async () => {
    make();
    const out = await post("Bash", { stdout: lines.join("\n"), stderr: "", interrupted: false, isImage: false });
    const updated = out.hookSpecificOutput?.updatedToolOutput;
    expect(updated).toMatchObject({ stderr: "", interrupted: false, isImage: false });
    expect(updated!.stdout).toContain("[masked:");
    expect(leaks(updated)).toEqual([]);
    expect(updated!.stdout.split("\n")).toHaveLength(lines.length);
  });

  it("Claude Code: an MCP tool's small output keeps its items and structuredContent, masked", async () => {
    make();
    const response = {
      content: [
        { type: "text", text: lines[0] },
        { type: "text", text: lines[6] },
      ],
      structuredContent: { token: values[13] },
    };
    const out = (await post("mcp__vault__read", response)).hookSpecificOutput?.updatedMCPToolOutput as typeof response;
    expect(out.content).toHaveLength(2);
    expect(out.structuredContent.token).toBe("[masked:github_token]");
    expect(leaks(out)).toEqual([]);
  });

  it("Claude Code: nothing to change in audit mode or for clean output", async () => {
    make({ sensitivity: { mode: "audit" } });
    expect(await post("Bash", { stdout: lines.join("\n"), stderr: "" })).toEqual({});
    expect(await post("Bash", { stdout: "all good", stderr: "" })).toEqual({});
  });

  it("generic transform: a masked pass-through is a change the host must deliver", () => {
    make();
    const r = transform(engine, { session_id: "h-1", tool: "terminal", text: lines.join("\n") });
    expect(r).toMatchObject({ changed: true, outcome: "passthrough", blob_id: null });
    expect(leaks(r.text)).toEqual([]);
    expect(transform(engine, { session_id: "h-1", tool: "terminal", text: "plain" })).toMatchObject({ changed: false, text: null });
  });
});
