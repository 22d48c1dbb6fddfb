/**
 * Upstreams that speak only the older HTTP+SSE transport (protocol 2024-11-05): the real
 * server-everything in its `sse` mode. An entry with a URL and no type (Cursor's and Gemini CLI's
 * shape) is tried over Streamable HTTP first and falls back to SSE; the inspector names the
 * transport found; a server that goes away is reconnected once it is back.
 */
import type { ChildProcess } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mountInspector } from "../../core/inspector/web";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempHome } from "../helpers/tempHome";
import { everythingOver, freePort } from "./helpers/everythingHttp";
import { BIN, httpClient, textOf, writeConfig } from "./helpers/setup";

const everythingSse = (port: number) => everythingOver("sse", port);

const stopped = (c: ChildProcess) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : c.once("exit", () => resolve())));

describe("an upstream that speaks only HTTP+SSE", () => {
  let port: number;
  let everything: ChildProcess;
  let t: TestEndpoint;
  let client: Client;
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const api = async (op: string) => (await t.post(`/api/${op}`, {})).json.value;

  beforeAll(async () => {
    port = await freePort();
    everything = await everythingSse(port);
    t = await startTestEndpoint({
      server: { upstreamTimeoutMs: 5000 },
      // As Cursor and Gemini CLI write it: a URL, no type.
      mcpServers: { legacy: { url: `http://127.0.0.1:${port}/sse` } },
    });
    // The web inspector, as `spillway serve` mounts it.
    mountInspector(t.ep, { engine: t.engine, home: t.home, configPath: join(t.home, "config.json") });
    client = (await httpClient(t.ep.mcpUrl, t.token)).client;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    everything?.kill();
  });

  it("is found by trying Streamable HTTP first, proxied, and named as SSE in the inspector", async () => {
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toContain("echo");
    expect(textOf(await call("echo", { message: "over sse" }))).toBe("Echo: over sse");
    expect(t.ep.upstreams.status()).toEqual([expect.objectContaining({ name: "legacy", state: "ready", transport: "sse" })]);
    expect((await api("endpoint.status")).upstreams).toEqual([
      expect.objectContaining({ name: "legacy", transport: "sse", state: "ready" }),
    ]);
    expect((await api("tools.list")).upstreams).toEqual([expect.objectContaining({ name: "legacy", transport: "sse" })]);
  });

  it("doctor names the transport it found", async () => {
    const home = tempHome("spillway-sse-doctor-");
    try {
      writeConfig(home.path, { mcpServers: { legacy: { url: `http://127.0.0.1:${port}/sse` } } });
      const r = await promisify(execFile)(process.execPath, [BIN, "doctor", "--quick", "--home", home.path]);
      expect(r.stdout).toMatch(/^ok {4}upstream +legacy: \d+ tools in [\d.]+ s over HTTP\+SSE$/m);
    } finally {
      home.cleanup();
    }
  });

  it("says so when the server goes away, and reconnects once it is back", async () => {
    expect((await client.listTools()).tools.map((x) => x.name)).toContain("echo");
    everything.kill();
    await stopped(everything);
    const down = await call("echo", { message: "anyone?" });
    expect(down.isError).toBe(true);
    // The broken stream closed the connection: the call starts a new one and says why it could not.
    expect(textOf(down)).toMatch(/^The upstream server legacy could not be started: .*ECONNREFUSED/);
    everything = await everythingSse(port);
    // The restart backs off for at most a few seconds; a call waits that out.
    let back: CallToolResult | null = null;
    for (let i = 0; i < 20 && !(back && !back.isError); i++) {
      back = await call("echo", { message: "back" });
      if (back.isError) await new Promise((r) => setTimeout(r, 500));
    }
    expect(textOf(back)).toBe("Echo: back");
    expect(t.ep.upstreams.status()[0]).toMatchObject({ state: "ready", transport: "sse" });
  });
});

describe("an HTTP upstream that refuses for another reason", () => {
  it("is not retried over SSE when the server answers 401: the error says what the server said", async () => {
    const http = await import("node:http");
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(401, { "content-type": "text/plain" }).end("bad token");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    const t = await startTestEndpoint({ mcpServers: { guarded: { url, headers: { Authorization: "Bearer wrong" } } } });
    try {
      const { client } = await httpClient(t.ep.mcpUrl, t.token);
      await client.listTools();
      await client.close();
      expect(t.ep.upstreams.status()[0]).toMatchObject({
        state: "down",
        transport: "http",
        lastError: expect.stringMatching(/: HTTP 401: bad token; if it needs a token, give it in the entry's "headers"/),
      });
      expect(seen.every((s) => s.startsWith("POST"))).toBe(true);
    } finally {
      await t.close();
      server.close();
    }
  });
});
