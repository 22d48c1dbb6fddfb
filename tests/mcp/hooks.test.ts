/**
 * The hook endpoints: Claude Code HTTP hook payloads (shaped as in Claude Code's hook docs) and
 * the generic JSON API, against a running endpoint.
 */
import { createHash } from "node:crypto";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

function log(lines: number, seed: string): string {
  return Array.from({ length: lines }, (_, i) => `[${seed}] ${i % 50 === 3 ? "ERROR" : "INFO"} request ${i} served in ${i % 71} ms`).join("\n");
}

const base = (session: string, event: string) => ({
  session_id: session,
  transcript_path: `/home/u/.claude/projects/p/${session}.jsonl`,
  cwd: "/home/u/project",
  permission_mode: "default",
  hook_event_name: event,
});

describe("hooks: Claude Code and the generic API", () => {
  let t: TestEndpoint;
  beforeAll(async () => (t = await startTestEndpoint()));
  afterAll(() => t?.close());
  const cc = (payload: unknown, query = "") => t.post(`/hooks/claude-code${query}`, payload);

  it("PostToolUse on a built-in tool with a large output answers updatedToolOutput with the handle", async () => {
    const stdout = log(3000, "bash");
    const r = await cc({ ...base("cc-1", "PostToolUse"), tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout, stderr: "", interrupted: false, isImage: false }, tool_use_id: "toolu_01" });
    expect(r.status).toBe(200);
    const out = r.json.hookSpecificOutput;
    expect(out.hookEventName).toBe("PostToolUse");
    expect(out.updatedToolOutput).toMatch(/PREVIEW, NOT the full output/);
    expect(out.updatedToolOutput.length).toBeLessThan(stdout.length / 4);
  });

  it("PostToolUse on an MCP tool answers updatedMCPToolOutput in the shape the tool gave", async () => {
    const text = log(3000, "mcp");
    const response = [{ type: "text", text }, { type: "image", data: "aGk=", mimeType: "image/png" }];
    const r = await cc({ ...base("cc-1", "PostToolUse"), tool_name: "mcp__github__get_file_contents", tool_input: { path: "big.log" }, tool_response: response });
    const updated = r.json.hookSpecificOutput.updatedMCPToolOutput;
    expect(updated).toHaveLength(2);
    expect(updated[0].text).toMatch(/PREVIEW/);
    expect(updated[1]).toEqual(response[1]);
  });

  it("answers {} for small outputs and for Spillway's own MCP tools", async () => {
    expect((await cc({ ...base("cc-1", "PostToolUse"), tool_name: "Read", tool_input: {}, tool_response: { type: "text", file: { content: "short" } } })).json).toEqual({});
    const own = await cc({ ...base("cc-1", "PostToolUse"), tool_name: "mcp__spillway__rescuer_fetch", tool_input: {}, tool_response: [{ type: "text", text: log(3000, "own") }] });
    expect(own.json).toEqual({});
  });

  it("stubs a repeat, and after PreCompact delivers it in full once more", async () => {
    const stdout = log(120, "repeat"); // over dedup.minChars, under the rescue threshold
    const post = () => cc({ ...base("cc-2", "PostToolUse"), tool_name: "Bash", tool_input: { command: "cat x" }, tool_response: { stdout, stderr: "" } });
    expect((await post()).json).toEqual({});
    const stub = (await post()).json.hookSpecificOutput.updatedToolOutput as string;
    expect(stub).toMatch(/recall_result\(result_id="[0-9a-f]{12}"\)/);
    expect((await cc({ ...base("cc-2", "PreCompact"), trigger: "auto", custom_instructions: "" })).json).toEqual({});
    expect((await post()).json).toEqual({});
    expect((await post()).json.hookSpecificOutput.updatedToolOutput).toMatch(/recall_result/);
    await cc({ ...base("cc-2", "SessionStart"), source: "compact" });
    expect(t.engine.reader.session("cc-2")!.generation).toBe(2);
  });

  it("UserPromptSubmit marks a turn", async () => {
    await cc({ ...base("cc-3", "UserPromptSubmit"), prompt: "hello" });
    await cc({ ...base("cc-3", "UserPromptSubmit"), prompt: "again" });
    expect(t.engine.reader.session("cc-3")!.turn).toBe(2);
  });

  it("PreToolUse expands spill: tokens with updatedInput, asks by default, and never feeds a shell", async () => {
    const stdout = log(3000, "ref");
    const handle = (await cc({ ...base("cc-4", "PostToolUse"), tool_name: "Bash", tool_input: { command: "x" }, tool_response: { stdout, stderr: "" } })).json.hookSpecificOutput.updatedToolOutput as string;
    const id = /([0-9a-f]{12})/.exec(handle)![1]!;
    const pre = await cc({ ...base("cc-4", "PreToolUse"), tool_name: "mcp__notes__digest", tool_input: { text: `spill:${id}`, mode: "fast" } });
    const out = pre.json.hookSpecificOutput;
    expect(out).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "ask" });
    expect(sha(out.updatedInput.text)).toBe(sha(stdout));
    expect(out.updatedInput.mode).toBe("fast");
    const allow = await cc({ ...base("cc-4", "PreToolUse"), tool_name: "mcp__notes__digest", tool_input: { text: `spill:${id}` } }, "?pretool=allow");
    expect(allow.json.hookSpecificOutput.permissionDecision).toBe("allow");

    const bash = await cc({ ...base("cc-4", "PreToolUse"), tool_name: "Bash", tool_input: { command: `cat spill:${id}` } });
    expect(bash.json.hookSpecificOutput.updatedInput).toBeUndefined();
    expect(bash.json.hookSpecificOutput.additionalContext).toMatch(/not expanded/);
    const other = await cc({ ...base("cc-other", "PreToolUse"), tool_name: "mcp__notes__digest", tool_input: { text: `spill:${id}` } });
    expect(other.json.hookSpecificOutput?.updatedInput).toBeUndefined();
    expect((await cc({ ...base("cc-4", "PreToolUse"), tool_name: "Read", tool_input: { file_path: "/a" } })).json).toEqual({});
  });

  it("fails open: malformed payloads get {} with status 200", async () => {
    expect(await cc("not json at all")).toEqual({ status: 200, json: {} });
    expect(await cc([1, 2])).toEqual({ status: 200, json: {} });
    expect(await cc({ hook_event_name: "PostToolUse" })).toEqual({ status: 200, json: {} });
    expect(await cc({ ...base("cc-5", "Stop") })).toEqual({ status: 200, json: {} });
  });

  it("the generic API: transform, expand, fetch, recall, compaction, turn", async () => {
    const text = log(3000, "generic");
    const tr = await t.post("/hooks/transform", { session_id: "h-1", tool: "terminal", args: { command: "make" }, text, client: "hermes" });
    expect(t.engine.reader.session("h-1")?.client).toBe("hermes");
    expect(tr.status).toBe(200);
    expect(tr.json.ok).toBe(true);
    const v = tr.json.value;
    expect(v).toMatchObject({ changed: true, outcome: "rescued", blob_id: expect.stringMatching(/^[0-9a-f]{12}$/), resource_uri: `spillway://blob/${v.blob_id}` });
    expect(v.text).toMatch(/PREVIEW/);
    const small = await t.post("/hooks/transform", { session_id: "h-1", tool: "terminal", text: "ok" });
    expect(small.json.value).toMatchObject({ changed: false, outcome: "passthrough", text: null });

    const ex = await t.post("/hooks/expand", { session_id: "h-1", tool: "summarize", args: { input: `spill:${v.blob_id}` } });
    expect(ex.json.value.changed).toBe(true);
    expect(ex.json.value.args.input).toBe(text);
    expect(ex.json.value.expansions[0]).toMatchObject({ id: v.blob_id, outcome: "expanded" });
    const denied = await t.post("/hooks/expand", { session_id: "h-1", tool: "terminal", args: { command: `spill:${v.blob_id}` } });
    expect(denied.json.value).toMatchObject({ changed: false, args: null, note: expect.stringMatching(/not expanded/) });

    const f = await t.post("/hooks/fetch", { session_id: "h-1", id: v.blob_id, mode: "grep", pattern: "request 1503 " });
    expect(f.json.value).toMatchObject({ is_error: false });
    expect(f.json.value.text).toContain("request 1503 served");
    const wrong = await t.post("/hooks/fetch", { session_id: "h-2", id: v.blob_id, mode: "stat" });
    expect(wrong.json.value.is_error).toBe(true);
    const mid = log(100, "mid");
    await t.post("/hooks/transform", { session_id: "h-1", tool: "terminal", text: mid });
    const stub = (await t.post("/hooks/transform", { session_id: "h-1", tool: "terminal", text: mid })).json.value;
    expect(stub).toMatchObject({ changed: true, outcome: "stubbed", resource_uri: null });
    const rec = await t.post("/hooks/recall", { session_id: "h-1", result_id: stub.blob_id });
    expect(rec.json.value).toEqual({ text: mid, is_error: false, truncated: false });

    expect((await t.post("/hooks/compaction", { session_id: "h-1" })).json).toEqual({ ok: true, value: { generation: 1 } });
    expect((await t.post("/hooks/turn", { session_id: "h-1" })).json).toEqual({ ok: true, value: { turn: 1 } });
    const bad = await t.post("/hooks/transform", { session_id: "h-1", tool: "x" });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ ok: false, error: { code: "bad_argument", message: expect.stringContaining("text") } });
  });

  it("requires the token on the hook routes too", async () => {
    const r = await fetch(t.ep.url + "/hooks/transform", { method: "POST", body: "{}" });
    expect(r.status).toBe(401);
  });
});
