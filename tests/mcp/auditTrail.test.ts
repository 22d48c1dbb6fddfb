/**
 * The audit trail over real MCP traffic (Streamable HTTP, the fixture upstream over stdio): failed
 * and refused calls keep their message, each call its duration and JSON-RPC, a fetch its answer,
 * a structuredContent result is one call, and a spill: reference shows on the call that got it.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, idIn, textOf, upstream } from "./helpers/setup";

describe("the audit trail of MCP calls", () => {
  let t: TestEndpoint;
  let a: { client: Client; transport: StreamableHTTPClientTransport };
  let b: { client: Client; transport: StreamableHTTPClientTransport };
  const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
    c.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const timeline = (sessionId: string) => t.engine.reader.timeline(sessionId, 0, 500);
  const detail = (callId: number) => t.engine.reader.callDetail(callId, () => null)!;

  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { fx: upstream.fixture() } });
    a = await httpClient(t.ep.mcpUrl, t.token, "audit-a");
    b = await httpClient(t.ep.mcpUrl, t.token, "audit-b");
  });
  afterAll(async () => {
    await a?.client.close();
    await b?.client.close();
    await t?.close();
  });

  it("records a rescued call with its duration, its JSON-RPC, and each fetch with the answer the model got", async () => {
    const handle = textOf(await call(a.client, "big_log", { lines: 2_000, seed: "audit" }));
    const id = idIn(handle);
    const grep = textOf(await call(a.client, "rescuer_fetch", { id, mode: "grep", pattern: "ERROR step 13:" }));
    const sid = a.transport.sessionId!;
    const [c] = timeline(sid).calls;
    expect(c).toMatchObject({ tool: "big_log", outcome: "rescued", blobId: id, reads: { count: 1, refused: 0 } });
    expect(c!.durationMs).toEqual(expect.any(Number));
    expect(c!.upstreamMs).toEqual(expect.any(Number));
    expect(c!.upstreamMs!).toBeLessThanOrEqual(c!.durationMs!);
    const d = detail(c!.id);
    expect(d.reads).toHaveLength(1);
    expect(d.reads[0]).toMatchObject({ type: "fetch", data: expect.objectContaining({ mode: "grep" }) });
    expect(d.reads[0]!.answer!.text).toBe(grep);
    expect(d.reads[0]!.durationMs).toEqual(expect.any(Number));
    // The JSON-RPC on both sides: the client got the handle, the upstream sent the whole log (cut here).
    expect(JSON.parse(d.rpc!.request)).toMatchObject({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "big_log", arguments: { lines: 2_000 } },
    });
    expect(JSON.parse(d.rpc!.response!).result.content[0].text).toBe(handle);
    expect(JSON.parse(d.rpc!.upstreamRequest!)).toMatchObject({ params: { name: "big_log" } });
    expect(d.rpc!.upstreamResponse).toMatch(/more chars\]/);
    // The fetch's own JSON-RPC is kept with its read.
    const ev = t.engine.reader.eventDetail(d.reads[0]!.id)!;
    expect(JSON.parse(ev.rpc!.request)).toMatchObject({ params: { name: "rescuer_fetch", arguments: { id, mode: "grep" } } });
  });

  it("records a crashed upstream, an unknown tool and refused reads, each with the sentence the model got", async () => {
    const crash = await call(a.client, "crash");
    expect(crash.isError).toBe(true);
    const unknown = await call(a.client, "no_such_tool", { x: 1 });
    expect(unknown.isError).toBe(true);
    const sid = a.transport.sessionId!;
    const own = timeline(sid).calls[0]!.blobId!;
    // Another session tries to read alpha's blob, then a bad mode and a bad id.
    const cross = await call(b.client, "rescuer_fetch", { id: own, mode: "stat" });
    const badMode = await call(b.client, "rescuer_fetch", { id: own, mode: "everything" });
    const badId = await call(b.client, "recall_result", { result_id: "not-an-id" });
    for (const r of [cross, badMode, badId]) expect(r.isError).toBe(true);

    const calls = timeline(sid).calls;
    const failed = calls.filter((c) => c.outcome === "error");
    expect(failed.map((c) => c.tool)).toEqual(["crash", "no_such_tool"]);
    expect(failed[0]!.errorText).toBe(textOf(crash));
    expect(failed[0]!.errorText).toMatch(/fx stopped while running crash/);
    expect(failed[0]).toMatchObject({ isError: true, server: "fx", durationMs: expect.any(Number) });
    expect(failed[1]!.errorText).toBe(textOf(unknown));
    expect(detail(failed[1]!.id).call.argsJson).toBe('{"x":1}');

    const other = timeline(b.transport.sessionId!);
    expect(other.calls).toEqual([]);
    const refused = other.marks.filter((m) => m.type === "fetch" || m.type === "recall");
    expect(refused).toHaveLength(3);
    for (const m of refused) expect(m.data).toMatchObject({ error: true });
    const texts = refused.map((m) => t.engine.reader.eventDetail(m.id)!.event.answer!.text);
    expect(texts).toEqual([textOf(cross), textOf(badMode), textOf(badId)]);
    expect(texts[0]).toMatch(/no stored result [0-9a-f]{12} in this session/);
    // The refused cross-session read shows in the blob's lineage, under the session that tried.
    expect(t.engine.reader.lineage(own).events).toContainEqual(
      expect.objectContaining({ type: "fetch", sessionId: b.transport.sessionId, data: expect.objectContaining({ error: true }) }),
    );
    expect(t.engine.reader.session(b.transport.sessionId!)).toMatchObject({ fetches: 0, errors: 3 });
    // A refusal costs the savings nothing.
    expect(t.engine.savings("session").find((s) => s.key === b.transport.sessionId)).toMatchObject({
      calls: 0,
      pulledChars: 0,
      netChars: 0,
      netTokens: 0,
    });
  });

  it("counts a result with a large structuredContent as one call, with its part beside it", async () => {
    const before = t.engine.reader.stats().calls;
    await call(a.client, "structured", { count: 800 });
    expect(t.engine.reader.stats().calls).toBe(before + 1);
    const c = timeline(a.transport.sessionId!).calls.at(-1)!;
    expect(c).toMatchObject({ tool: "structured", parts: 1 });
    const d = detail(c.id);
    expect(d.parts).toHaveLength(1);
    expect(d.parts[0]!.call.outcome).toBe("rescued");
    expect(c.returnedChars).toBe(d.parts[0]!.call.returnedChars + "800 items".length);
  });

  it("shows a spill: reference on the call that received it: chars moved, and a denial with its reason", async () => {
    const sid = a.transport.sessionId!;
    const id = timeline(sid).calls[0]!.blobId!;
    const got = textOf(await call(a.client, "digest", { text: `spill:${id}` }));
    await call(a.client, "run_shell", { command: `cat spill:${id}` });
    const calls = timeline(sid).calls;
    const digest = calls.find((c) => c.tool === "digest")!;
    const blobChars = t.engine.reader.meta(id)!.chars;
    expect(got).toBe(`length=${blobChars} ${got.split(" ")[1]}`);
    expect(digest.received).toMatchObject({ expanded: 1, denied: 0, chars: blobChars });
    const shell = calls.find((c) => c.tool === "run_shell")!;
    expect(shell.received).toMatchObject({ expanded: 0, denied: 1, chars: 0 });
    const why = detail(shell.id).received[0]!;
    expect(why.answer!.text).toMatch(new RegExp(`spill:${id} was not expanded for run_shell`));
    await t.engine.idle();
    expect(t.engine.reader.referenceTotals()).toMatchObject({ expanded: 1, denied: 1, chars: blobChars, tokens: expect.any(Number) });
    expect(t.engine.reader.referenceTotals().tokens).toBeGreaterThan(0);
  });

  it("keeps a Claude Code session's prompt, the tool's reported duration, and one compaction signalled twice", async () => {
    const sid = "cc-audit-0001";
    const hook = (body: Record<string, unknown>) =>
      t.post("/hooks/claude-code", { session_id: sid, transcript_path: "/tmp/x.jsonl", cwd: "/tmp", ...body });
    await hook({ hook_event_name: "UserPromptSubmit", prompt: "Why did the nightly build fail?" });
    await hook({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "make" },
      tool_response: { stdout: "ok", stderr: "", interrupted: false, isImage: false },
      duration_ms: 1_234,
    });
    await hook({ hook_event_name: "PreCompact", trigger: "auto" });
    await hook({ hook_event_name: "SessionStart", source: "compact" });
    const page = timeline(sid);
    expect(page.calls).toMatchObject([{ tool: "Bash", durationMs: 1_234 }]);
    expect(page.marks.map((m) => m.type)).toEqual(["turn", "compaction"]);
    expect(page.marks[0]!.data).toMatchObject({ turn: 1, prompt: "Why did the nightly build fail?" });
    expect(t.engine.reader.session(sid)).toMatchObject({ generation: 1, turn: 1 });
  });
});

describe("the audit trail of a timed-out call", () => {
  it("records a call that outlived the upstream timeout, with the sentence the model got and its duration", async () => {
    const t = await startTestEndpoint({ server: { upstreamTimeoutMs: 1_000 }, mcpServers: { fx: upstream.fixture() } });
    const c = await httpClient(t.ep.mcpUrl, t.token, "audit-timeout");
    try {
      const slow = (await c.client.callTool({ name: "slow", arguments: { steps: 30, ms: 100 } })) as CallToolResult;
      expect(slow.isError).toBe(true);
      const [call] = t.engine.reader.timeline(c.transport.sessionId!, 0, 10).calls;
      expect(call).toMatchObject({ tool: "slow", outcome: "error", errorText: "The upstream server fx did not answer slow within 1 s." });
      expect(call).toMatchObject({ durationMs: expect.any(Number), upstreamMs: expect.any(Number) });
    } finally {
      await c.client.close();
      await t.close();
    }
  });
});
