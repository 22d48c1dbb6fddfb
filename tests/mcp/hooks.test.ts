/**
 * The hook endpoints: Claude Code HTTP hook payloads (shaped as Claude Code 2.1.197 sends them, see
 * tests/fixtures/claude-code) and the generic JSON API, against a running endpoint.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CLAUDE_TOOL_USE_META } from "../../core/hooks/toolUseSessions";
import { seqOutput } from "../hosts/claude/projectFiles";
import { bigLog } from "../hosts/claude/steps";
import { smallSecrets } from "../fixtures/secrets/smallSecrets";
import { tempHome } from "../helpers/tempHome";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, stdioClient, textOf } from "./helpers/setup";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

function log(lines: number, seed: string): string {
  return Array.from({ length: lines }, (_, i) => `[${seed}] ${i % 50 === 3 ? "ERROR" : "INFO"} request ${i} served in ${i % 71} ms`).join(
    "\n",
  );
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
  // Claude Code's own MCP session on this endpoint, as `spillway connect` sets it up over HTTP: its model has Spillway's tools.
  let claudeMcp: Awaited<ReturnType<typeof httpClient>> | null = null;
  beforeAll(async () => {
    t = await startTestEndpoint();
    claudeMcp = await httpClient(t.ep.mcpUrl, t.token, "claude-code");
  });
  afterAll(async () => {
    await claudeMcp?.client.close();
    await t?.close();
  });
  const cc = (payload: unknown, query = "") => t.post(`/hooks/claude-code${query}`, payload);

  it("PostToolUse on a built-in tool with a large output answers updatedToolOutput in the tool's shape, the handle in stdout", async () => {
    const stdout = log(3000, "bash");
    const r = await cc({
      ...base("cc-1", "PostToolUse"),
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
      tool_use_id: "toolu_01",
    });
    expect(r.status).toBe(200);
    const out = r.json.hookSpecificOutput;
    expect(out.hookEventName).toBe("PostToolUse");
    expect(out.updatedToolOutput).toMatchObject({ stderr: "", interrupted: false, isImage: false });
    expect(out.updatedToolOutput.stdout).toMatch(/PREVIEW, NOT the full output/);
    expect(out.updatedToolOutput.stdout.length).toBeLessThan(stdout.length / 4);
  });

  it("PostToolUse on an MCP tool answers updatedMCPToolOutput in the shape the tool gave", async () => {
    const text = log(3000, "mcp");
    const response = [
      { type: "text", text },
      { type: "image", data: "aGk=", mimeType: "image/png" },
    ];
    const r = await cc({
      ...base("cc-1", "PostToolUse"),
      tool_name: "mcp__github__get_file_contents",
      tool_input: { path: "big.log" },
      tool_response: response,
    });
    const updated = r.json.hookSpecificOutput.updatedMCPToolOutput;
    expect(updated).toHaveLength(2);
    expect(updated[0].text).toMatch(/PREVIEW/);
    expect(updated[1]).toEqual(response[1]);
  });

  it("answers {} for small outputs and for Spillway's own MCP tools", async () => {
    expect(
      (
        await cc({
          ...base("cc-1", "PostToolUse"),
          tool_name: "Read",
          tool_input: {},
          tool_response: { type: "text", file: { content: "short" } },
        })
      ).json,
    ).toEqual({});
    const own = await cc({
      ...base("cc-1", "PostToolUse"),
      tool_name: "mcp__spillway__rescuer_fetch",
      tool_input: {},
      tool_response: [{ type: "text", text: log(3000, "own") }],
    });
    expect(own.json).toEqual({});
  });

  it("stubs a repeat, and after PreCompact delivers it in full once more", async () => {
    const stdout = log(120, "repeat"); // over dedup.minChars, under the rescue threshold
    const post = () =>
      cc({ ...base("cc-2", "PostToolUse"), tool_name: "Bash", tool_input: { command: "cat x" }, tool_response: { stdout, stderr: "" } });
    expect((await post()).json).toEqual({});
    const stub = (await post()).json.hookSpecificOutput.updatedToolOutput.stdout as string;
    expect(stub).toMatch(/recall_result\(result_id="[0-9a-f]{12}"\)/);
    expect((await cc({ ...base("cc-2", "PreCompact"), trigger: "auto", custom_instructions: "" })).json).toEqual({});
    expect((await post()).json).toEqual({});
    expect((await post()).json.hookSpecificOutput.updatedToolOutput.stdout).toMatch(/recall_result/);
    await cc({ ...base("cc-2", "SessionStart"), source: "compact" });
    expect(t.engine.reader.session("cc-2")!.generation).toBe(2);
  });

  it("UserPromptSubmit marks a turn", async () => {
    await cc({ ...base("cc-3", "UserPromptSubmit"), prompt: "hello" });
    await cc({ ...base("cc-3", "UserPromptSubmit"), prompt: "again" });
    expect(t.engine.reader.session("cc-3")!.turn).toBe(2);
  });

  it("PreToolUse expands spill: tokens with updatedInput and no permission decision, never feeds a shell, and leaves Spillway's own tools alone", async () => {
    const stdout = log(3000, "ref");
    const handle = (
      await cc({ ...base("cc-4", "PostToolUse"), tool_name: "Bash", tool_input: { command: "x" }, tool_response: { stdout, stderr: "" } })
    ).json.hookSpecificOutput.updatedToolOutput.stdout as string;
    const id = /([0-9a-f]{12})/.exec(handle)![1]!;
    const pre = await cc({
      ...base("cc-4", "PreToolUse"),
      tool_name: "mcp__notes__digest",
      tool_input: { text: `spill:${id}`, mode: "fast" },
    });
    const out = pre.json.hookSpecificOutput;
    // Without a decision Claude Code applies its usual permissions to the expanded input: no auto-approval, and no "ask" (a denial under claude -p).
    expect(out.hookEventName).toBe("PreToolUse");
    expect(out).not.toHaveProperty("permissionDecision");
    expect(sha(out.updatedInput.text)).toBe(sha(stdout));
    expect(out.updatedInput.mode).toBe("fast");
    for (const own of ["mcp__spillway__digest", "mcp__spillway__rescuer_fetch", "mcp__elsewhere__recall_result"]) {
      expect(
        (await cc({ ...base("cc-4", "PreToolUse"), tool_name: own, tool_input: { text: `spill:${id}` }, tool_use_id: "toolu_own" })).json,
      ).toEqual({});
    }

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
    expect(v).toMatchObject({
      changed: true,
      outcome: "rescued",
      blob_id: expect.stringMatching(/^[0-9a-f]{12}$/),
      resource_uri: `spillway://blob/${v.blob_id}`,
    });
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
    // arguments that are not an object are refused, not read as "nothing to expand"
    for (const args of [5, "spill:abc", true]) {
      const wrong = await t.post("/hooks/expand", { session_id: "h-1", tool: "summarize", args });
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({ ok: false, error: { code: "bad_argument", message: expect.stringContaining("args") } });
    }
    expect((await t.post("/hooks/expand", { session_id: "h-1", tool: "summarize", args: null })).status).toBe(200);
  });

  it("stores the whole file Claude Code persisted a long Bash output to, not the 30,000-char head it sends", async () => {
    const dir = tempHome("spillway-cc-persist-");
    try {
      // The captured payload, moved to a temp folder laid out as Claude Code lays out its files.
      const raw = readFileSync(new URL("../fixtures/claude-code/post-bash-persisted.json", import.meta.url), "utf8").replaceAll(
        "/tmp/claude-capture",
        dir.path,
      );
      const payload = JSON.parse(raw);
      const file = payload.tool_response.persistedOutputPath as string;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(payload.transcript_path, "");
      writeFileSync(file, seqOutput(40_000));
      const out = (await cc(payload)).json.hookSpecificOutput.updatedToolOutput;
      expect(out.stdout).toMatch(/stored as [0-9a-f]{12} — 228,894 chars, 40,000 lines/);
      expect(out).not.toHaveProperty("persistedOutputPath");
      const id = /stored as ([0-9a-f]{12})/.exec(out.stdout)![1]!;
      const last = await t.post("/hooks/fetch", { session_id: payload.session_id, id, mode: "grep", pattern: "^40000$" });
      expect(last.json.value.text).toMatch(/39999: 40000/);

      // A persisted file that is gone, or not the size the payload names: Claude Code's own preview stays.
      const gone = JSON.parse(raw.replaceAll(payload.session_id, "11111111-2222-4333-8444-555555555555"));
      expect((await cc(gone)).json).toEqual({});
      writeFileSync(file, seqOutput(39_999));
      expect((await cc(payload)).json).toEqual({});
    } finally {
      dir.cleanup();
    }
  });

  it("stores the whole MCP result Claude Code saved to a file when it was over its token limit, and answers the handle", async () => {
    const dir = tempHome("spillway-cc-saved-");
    try {
      const payload = JSON.parse(
        readFileSync(new URL("../fixtures/claude-code/post-mcp-saved.json", import.meta.url), "utf8").replaceAll(
          "/tmp/claude-capture",
          dir.path,
        ),
      );
      const file = /saved to (\/\S+?)\.\n/.exec(payload.tool_response)![1]!;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(payload.transcript_path, "");
      writeFileSync(file, bigLog(2_000, "cap"));
      const out = (await cc(payload)).json.hookSpecificOutput.updatedMCPToolOutput;
      expect(out).toMatch(/^\[spillway: output of mcp__fixture__big_log stored as [0-9a-f]{12} — 103,596 chars, 2,000 lines/);
    } finally {
      dir.cleanup();
    }
  });

  it("an HTTP MCP session joins the Claude Code session whose PreToolUse announced its tool-use id", async () => {
    const stdout = log(3000, "join");
    const handle = (
      await cc({
        ...base("cc-join", "PostToolUse"),
        tool_name: "Bash",
        tool_input: { command: "make" },
        tool_response: { stdout, stderr: "" },
      })
    ).json.hookSpecificOutput.updatedToolOutput.stdout as string;
    const id = /stored as ([0-9a-f]{12})/.exec(handle)![1]!;
    const { client, transport } = await httpClient(t.ep.mcpUrl, t.token);
    try {
      const fetchIt = (meta?: Record<string, unknown>) =>
        client.callTool({ name: "rescuer_fetch", arguments: { id, mode: "stat" }, ...(meta ? { _meta: meta } : {}) });
      const alone = await fetchIt();
      expect(alone.isError).toBe(true);
      expect(textOf(alone)).toMatch(/no stored result [0-9a-f]{12} in this session/);
      // A tool-use id nobody announced changes nothing.
      expect((await fetchIt({ [CLAUDE_TOOL_USE_META]: "toolu_unknown" })).isError).toBe(true);
      expect(
        (
          await cc({
            ...base("cc-join", "PreToolUse"),
            tool_name: "mcp__spillway__rescuer_fetch",
            tool_input: { id, mode: "stat" },
            tool_use_id: "toolu_join1",
          })
        ).json,
      ).toEqual({});
      const joined = await fetchIt({ [CLAUDE_TOOL_USE_META]: "toolu_join1" });
      expect(joined.isError).toBeFalsy();
      expect(textOf(joined)).toContain(stdout.length.toLocaleString("en-US"));
      // Later calls of that MCP session stay in the Claude Code session.
      expect((await fetchIt()).isError).toBeFalsy();
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });

  it("requires the token on the hook routes too", async () => {
    const r = await fetch(t.ep.url + "/hooks/transform", { method: "POST", body: "{}" });
    expect(r.status).toBe(401);
  });
  it("with no Spillway MCP session serving Claude Code, a large output is delivered as Claude Code gave it (secrets masked), stored, and the reason recorded", async () => {
    await claudeMcp!.transport.terminateSession();
    await claudeMcp!.client.close();
    claudeMcp = null;
    // What `claude mcp list` leaves behind: a session of "claude-code" initialized, its tools
    // listed, its process gone, never closed. No model can call tools through it.
    const headers = {
      authorization: `Bearer ${t.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const post = async (body: unknown, sid?: string) => {
      const r = await fetch(t.ep.mcpUrl, {
        method: "POST",
        headers: sid ? { ...headers, "mcp-session-id": sid } : headers,
        body: JSON.stringify(body),
      });
      await r.text();
      return r;
    };
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.197" } },
    });
    const left = init.headers.get("mcp-session-id")!;
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, left);
    expect((await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, left)).status).toBe(200);
    const key = smallSecrets(11).values[12]!;
    const stdout = `${log(3000, "alone")}\nAWS_ACCESS_KEY_ID=${key}\n`;
    const bash = {
      ...base("cc-alone", "PostToolUse"),
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
      tool_use_id: "toolu_alone1",
    };
    const first = (await cc(bash)).json.hookSpecificOutput.updatedToolOutput.stdout as string;
    // No preview the model could not read further, and no stub of the repeat either.
    expect(first.length).toBeGreaterThan(stdout.length - 100);
    expect(first).not.toContain(key);
    expect(first).not.toMatch(/PREVIEW|rescuer_fetch|recall_result/);
    const again = (await cc({ ...bash, tool_use_id: "toolu_alone2" })).json.hookSpecificOutput.updatedToolOutput.stdout as string;
    expect(again).toBe(first);
    // Nothing to mask: Claude Code's own answer stands.
    expect(
      (await cc({ ...bash, tool_use_id: "toolu_alone3", tool_response: { ...bash.tool_response, stdout: log(3000, "plain") } })).json,
    ).toEqual({});
    const calls = t.engine.reader.timeline("cc-alone", 0, 10).calls;
    expect(calls.map((c) => c.outcome)).toEqual(["passthrough", "passthrough", "passthrough"]);
    // Stored for the audit, with why it was not rescued.
    expect(calls[0]!.blob?.id).toMatch(/^[0-9a-f]{12}$/);
    expect(calls.map((c) => c.reason)).toEqual(["no_spillway_tools", "no_spillway_tools", "no_spillway_tools"]);
    // The health check's session is still open all the while: only its being unconnected kept it out.
    expect((await post({ jsonrpc: "2.0", id: 3, method: "ping" }, left)).status).toBe(200);
    // The same session, once a Spillway MCP session serves it, gets handles again.
    const mcp = await httpClient(t.ep.mcpUrl, t.token, "claude-code");
    try {
      const later = (
        await cc({ ...bash, tool_use_id: "toolu_alone4", tool_response: { ...bash.tool_response, stdout: log(3000, "later") } })
      ).json;
      expect(later.hookSpecificOutput.updatedToolOutput.stdout).toMatch(/PREVIEW, NOT the full output/);
    } finally {
      await mcp.transport.terminateSession().catch(() => {});
      await mcp.client.close();
    }
  });

  it("a session served by a stdio Spillway server counts as having the tools only while that server runs (claude --resume without it)", async () => {
    const bash = (id: string, seed: string) => ({
      ...base("cc-resumed", "PostToolUse"),
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout: log(3000, seed), stderr: "", interrupted: false, isImage: false },
      tool_use_id: id,
    });
    // The stdio server Claude Code starts for the session, with the session's id in its environment.
    const stdio = await stdioClient(t.home, { CLAUDE_CODE_SESSION_ID: "cc-resumed" });
    try {
      await vi.waitFor(() => expect(t.engine.hasTools("cc-resumed")).toBe(true), { timeout: 10_000 });
      const served = (await cc(bash("toolu_res1", "served"))).json;
      expect(served.hookSpecificOutput.updatedToolOutput.stdout).toMatch(/PREVIEW, NOT the full output/);
    } finally {
      await stdio.close();
    }
    // The agent exited with its server; resumed later with no Spillway server, its model has no rescuer_fetch.
    await vi.waitFor(() => expect(t.engine.hasTools("cc-resumed")).toBe(false), { timeout: 10_000 });
    const whole = (await cc(bash("toolu_res2", "resumed"))).json;
    expect(whole).toEqual({});
    const calls = t.engine.reader.timeline("cc-resumed", 0, 10).calls;
    expect(calls.map((c) => [c.outcome, c.reason])).toEqual([
      ["rescued", null],
      ["passthrough", "no_spillway_tools"],
    ]);
  });
});
