/**
 * Claude Code PostToolUse: a secret in the fields of a built-in tool's output beside its text (an
 * Agent's prompt, a WebSearch's query, as in the captured tests/fixtures/claude-code payloads) is
 * masked in what the model is given, whether or not the text itself held one.
 */
import { readFileSync } from "node:fs";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient } from "./helpers/setup";

const TOKEN = ["ghp", "Q7r8A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("_");
const captured = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/claude-code/${name}`, import.meta.url), "utf8"));

describe("hooks: Claude Code output fields beside the text", () => {
  let t: TestEndpoint;
  // Claude Code's own MCP session on this endpoint: its model has Spillway's tools.
  let claudeMcp: Awaited<ReturnType<typeof httpClient>> | null = null;
  beforeAll(async () => {
    t = await startTestEndpoint();
    claudeMcp = await httpClient(t.ep.mcpUrl, t.token, "claude-code");
  });
  afterAll(async () => {
    await claudeMcp?.client.close();
    await t?.close();
  });
  const updated = async (payload: Record<string, unknown>) =>
    (await t.post("/hooks/claude-code", payload)).json.hookSpecificOutput?.updatedToolOutput as Record<string, unknown> | undefined;

  it("an Agent's prompt and result holding a token: every field masked, the shape kept", async () => {
    const p = captured("post-agent.json");
    p.tool_response.prompt = `SUBAGENT: list the repos of ${TOKEN}`;
    p.tool_response.content = [{ type: "text", text: `Listed the repos with ${TOKEN}.` }];
    const out = await updated(p);
    expect(out).toMatchObject({
      status: "completed",
      agentType: "general-purpose",
      prompt: expect.stringMatching(/^SUBAGENT: list the repos of \[masked:/),
    });
    expect(JSON.stringify(out)).not.toContain("ghp_");
  });

  it("an Agent's prompt holding a token beside a clean result is answered masked too", async () => {
    const p = captured("post-agent.json");
    p.tool_response.prompt = `SUBAGENT: use ${TOKEN}`;
    const out = await updated(p);
    expect(out).toMatchObject({ prompt: expect.stringMatching(/^SUBAGENT: use \[masked:/), content: p.tool_response.content });
    expect(JSON.stringify(out)).not.toContain("ghp_");
  });

  it("a WebSearch's query holding a token is masked, whatever the results", async () => {
    const p = captured("post-websearch.json");
    p.tool_response.query = `repos of ${TOKEN}`;
    const clean = await updated(p);
    expect(clean).toMatchObject({ query: expect.stringMatching(/^repos of \[masked:/), searchCount: 1 });
    expect(JSON.stringify(clean)).not.toContain("ghp_");

    p.tool_response.results = [`Found ${TOKEN} in a gist.`];
    const dirty = await updated(p);
    expect(dirty).toMatchObject({ query: expect.stringMatching(/^repos of \[masked:/) });
    expect(JSON.stringify(dirty)).not.toContain("ghp_");
  });
});
