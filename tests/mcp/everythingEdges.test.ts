/**
 * What a client sees through Spillway of newer MCP corners, mostly with the real server-everything:
 * a tool that needs task augmentation (which the proxy does not forward), progress that arrives
 * after its call ended, and URL-mode elicitation.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine, type Engine } from "../../core/engine/engine";
import { startEndpoint, type RunningEndpoint } from "../../core/endpoint/endpoint";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { httpClient, patientStart, ROOT, stdioClient, textOf, upstream, writeConfig } from "./helpers/setup";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** An upstream whose `burst` tool sends its progress and result at once (fixtures/burstServer.ts). */
const burst = () => ({ command: process.execPath, args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/burstServer.ts")], cwd: ROOT });
/** Calls `burst` with a progress handler, as a client that shows progress does. */
const burstCall = async (c: Client, steps: number) =>
  (await c.request({ method: "tools/call", params: { name: "burst", arguments: { steps } } }, CallToolResultSchema, {
    onprogress: () => {},
  })) as CallToolResult;

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

describe("server-everything through spillway serve", () => {
  const home = tempHome("spillway-edges-");
  const logger = memoryLogger();
  let engine: Engine;
  let ep: RunningEndpoint;
  let c: Client;

  beforeAll(async () => {
    engine = createEngine({
      home: home.path,
      config: parseConfig(patientStart({ mcpServers: { everything: upstream.everything(), burst: burst() } })),
      logger,
    });
    ep = await startEndpoint({ engine, home: home.path, port: 0 });
    const token = readFileSync(join(home.path, "token"), "utf8").trim();
    c = (await httpClient(ep.mcpUrl, token, "edges")).client;
  });
  afterAll(async () => {
    await c?.close();
    await ep?.close();
    await engine?.close();
    home.cleanup();
  });

  it("leaves out a tool that requires task augmentation, says so once in the log, and keeps the rest callable", async () => {
    const offered = await names(c);
    expect(offered).toContain("echo");
    // Every call of it would fail with "requires task augmentation": the proxy does not forward tasks.
    expect(offered).not.toContain("simulate-research-query");
    await names(c);
    const told = logger.entries.filter((e) => /task augmentation/.test(e.msg));
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ server: "everything", tools: ["simulate-research-query"] });
    expect(textOf(await c.callTool({ name: "echo", arguments: { message: "still here" } }))).toContain("still here");
  });

  it("passes the client's _meta of a call on to the upstream (trace ids, a host's tool-use id), as a direct connection does", async () => {
    const r = (await c.request(
      {
        method: "tools/call",
        params: { name: "meta", arguments: {}, _meta: { "claudecode/toolUseId": "toolu_01", traceparent: "00-abc-def-01" } },
      },
      CallToolResultSchema,
    )) as CallToolResult;
    expect(JSON.parse(textOf(r))).toEqual({ "claudecode/toolUseId": "toolu_01", traceparent: "00-abc-def-01" });
  });

  it("relays a URL-mode elicitation to a client that declared it, and refuses it in a sentence for one that declared form only", async () => {
    const token = readFileSync(join(home.path, "token"), "utf8").trim();
    const both = (await httpClient(ep.mcpUrl, token, "url-client", { elicitation: { form: {}, url: {} } })).client;
    const formOnly = (await httpClient(ep.mcpUrl, token, "form-client", { elicitation: {} })).client;
    try {
      const asked: unknown[] = [];
      both.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params);
        return { action: "accept" as const };
      });
      formOnly.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" as const }));
      expect(await names(both)).toContain("trigger-url-elicitation");
      const r = await both.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/consent" } });
      expect(textOf(r)).toContain("User completed the URL elicitation flow");
      expect(asked).toEqual([expect.objectContaining({ mode: "url", url: "https://example.com/consent" })]);
      const refused = await formOnly.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/consent" } });
      expect(textOf(refused)).toMatch(/did not declare URL-mode elicitation, so .* cannot ask it to open a URL/);
    } finally {
      await both.close();
      await formOnly.close();
    }
  });

  it("does not warn about progress that arrives after its call ended: one info line for the call, in honest words", async () => {
    const before = logger.entries.length;
    expect(textOf(await burstCall(c, 50))).toBe("sent 50 steps");
    expect(textOf(await burstCall(c, 50))).toBe("sent 50 steps");
    // Give the late notifications time to be handled.
    await new Promise((r) => setTimeout(r, 300));
    const after = logger.entries.slice(before);
    expect(after.filter((e) => e.level === "warn")).toEqual([]);
    const told = after.filter((e) => /progress/.test(e.msg));
    expect(told.length).toBeLessThanOrEqual(2);
    for (const e of told) expect(e).toMatchObject({ level: "info", msg: "progress notification arrived after its request ended" });
  });
});

describe("server-everything through spillway mcp", () => {
  it("declares URL-mode elicitation to the upstreams when the client declared it: the URL tool is offered and its request relayed", async () => {
    const home = tempHome("spillway-url-elicit-");
    writeConfig(home.path, { mcpServers: { everything: upstream.everything() } });
    const c = await stdioClient(home.path, {}, { elicitation: { form: {}, url: {} } });
    try {
      const asked: unknown[] = [];
      c.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params);
        return { action: "accept" as const };
      });
      expect(await names(c)).toEqual(expect.arrayContaining(["trigger-url-elicitation", "trigger-elicitation-request"]));
      const r = await c.callTool({ name: "trigger-url-elicitation", arguments: { url: "https://example.com/consent" } });
      expect(textOf(r)).toContain("User completed the URL elicitation flow");
      expect(asked).toEqual([expect.objectContaining({ mode: "url", url: "https://example.com/consent" })]);
    } finally {
      await c.close();
      home.cleanup();
    }
  });

  it("declares form elicitation only for a client that declared form only: no URL tool, the form one still offered", async () => {
    const home = tempHome("spillway-form-elicit-");
    writeConfig(home.path, { mcpServers: { everything: upstream.everything() } });
    const c = await stdioClient(home.path, {}, { elicitation: {} });
    try {
      const offered = await names(c);
      expect(offered).toContain("trigger-elicitation-request");
      expect(offered).not.toContain("trigger-url-elicitation");
    } finally {
      await c.close();
      home.cleanup();
    }
  });

  it("does not print progress that arrived after its call ended as transport errors on stderr", async () => {
    const home = tempHome("spillway-late-progress-");
    writeConfig(home.path, { mcpServers: { burst: burst() } });
    const c = await stdioClient(home.path);
    const stderr: string[] = [];
    (c.transport as StdioClientTransport).stderr?.on("data", (d: Buffer) => stderr.push(String(d)));
    try {
      for (let i = 0; i < 3; i++) expect(textOf(await burstCall(c, 50))).toBe("sent 50 steps");
      await new Promise((r) => setTimeout(r, 300));
      expect(stderr.join("")).not.toMatch(/unknown token|transport error/);
    } finally {
      await c.close();
      home.cleanup();
    }
  });
});
