/**
 * The upstream tool catalog and a tool run by hand, through the web inspector's API on a real
 * endpoint: the run goes through the proxy as the inspector's session, rescued and recorded like
 * an agent's call.
 */
import { join } from "node:path";
import { mountInspector } from "../../core/inspector/web/webRoutes";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { upstream } from "./helpers/setup";

describe("the MCP Inspector's tools in Spillway", () => {
  let t: TestEndpoint;
  const op = async (name: string, body: unknown = {}) => {
    const r = await t.post(`/api/${name}`, body);
    if (!r.json.ok) throw new Error(`${name}: ${r.json.error.message}`);
    return r.json.value;
  };
  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { fx: upstream.fixture() } });
    mountInspector(t.ep, { engine: t.engine, home: t.home, configPath: join(t.home, "config.json") });
  });
  afterAll(() => t?.close());

  it("lists each upstream's tools with their own schemas, outputSchema included", async () => {
    const cat = await op("tools.list");
    expect(cat.sessionId).toMatch(/^inspector-/);
    const fx = cat.upstreams.find((u: { name: string }) => u.name === "fx");
    expect(fx).toMatchObject({ transport: "stdio", state: "ready" });
    const structured = fx.tools.find((x: { name: string }) => x.name === "structured");
    expect(structured.inputSchema).toMatchObject({ type: "object", properties: { count: { type: "integer" } } });
    expect(structured.outputSchema).toMatchObject({ type: "object", properties: { items: { type: "array" } } });
    expect(fx.tools.map((x: { name: string }) => x.name)).toContain("big_log");
  });

  it("runs a tool by hand through the proxy: rescued like an agent's result, recorded in the inspector's session", async () => {
    const run = await op("tools.run", { tool: "big_log", args: { lines: 1_500, seed: "hand" } });
    expect(run).toMatchObject({ isError: false, sessionId: expect.stringMatching(/^inspector-/), callId: expect.any(Number) });
    const text = run.result.content[0].text as string;
    expect(text).toMatch(/^\[spillway: output of big_log stored as [0-9a-f]{12}/);
    const detail = await op("calls.get", { callId: run.callId });
    expect(detail.call).toMatchObject({ tool: "big_log", outcome: "rescued", sessionId: run.sessionId });
    expect(JSON.parse(detail.rpc.request)).toMatchObject({
      method: "tools/call",
      params: { name: "big_log", arguments: { seed: "hand" } },
    });
    const sessions = await op("sessions.list", {});
    expect(sessions.rows.find((s: { id: string }) => s.id === run.sessionId)).toMatchObject({
      client: expect.stringMatching(/^spillway-inspector/),
      calls: 1,
    });
    // A failure by hand is recorded as a failed call too, with the sentence.
    const bad = await op("tools.run", { tool: "no_such_tool", args: {} });
    expect(bad).toMatchObject({ isError: true, callId: expect.any(Number) });
    expect(bad.result.content[0].text).toMatch(/There is no tool named no_such_tool/);
  });
});
