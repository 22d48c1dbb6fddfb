/** Upstream edge cases: a Streamable HTTP upstream, a slow upstream hitting the timeout, one that cannot start. */
import type { ChildProcess } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { everythingOver, freePort } from "./helpers/everythingHttp";
import { httpClient, textOf, upstream } from "./helpers/setup";

describe("upstreams over HTTP, slow ones and broken ones", () => {
  let everything: ChildProcess;
  let t: TestEndpoint;
  let client: Client;
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    const port = await freePort();
    everything = await everythingOver("streamableHttp", port);
    t = await startTestEndpoint({
      server: { upstreamTimeoutMs: 1000 },
      mcpServers: {
        // Cursor's shape, moved over as it is: a url and no type.
        remote: { url: `http://127.0.0.1:${port}/mcp`, headers: { "X-Test": "1" } },
        fx: upstream.fixture(),
        // OpenCode's shape, switched off: kept in the file, never started.
        off: { type: "local", command: [process.execPath, ...upstream.memory("/nonexistent/memory.json").args], enabled: false },
        broken: { command: "/nonexistent/spillway-test-server" },
      },
    });
    client = (await httpClient(t.ep.mcpUrl, t.token)).client;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    everything?.kill();
  });

  it("proxies a Streamable HTTP upstream and leaves out one that cannot start or is disabled", async () => {
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).not.toContain("create_entities");
    expect(t.ep.upstreams.status().map((u) => u.name)).not.toContain("off");
    expect(names).toContain("echo");
    expect(names).toContain("digest");
    expect(textOf(await call("echo", { message: "over http" }))).toBe("Echo: over http");
    // No type in the entry: Streamable HTTP answered, so no fallback to SSE.
    expect(t.ep.upstreams.status().find((u) => u.name === "remote")).toMatchObject({ state: "ready", transport: "http" });
    expect(t.ep.upstreams.status().find((u) => u.name === "broken")).toMatchObject({
      state: "down",
      lastError: expect.stringMatching(/did not start/),
    });
    // A tool no server lists: the server that failed is named as down with why, not as "still starting".
    const missing = textOf(await call("not_a_tool"));
    expect(missing).toMatch(/Not listed: the upstream server broken is down: it did not start: .*\.\)/);
    expect(missing).not.toMatch(/still starting: .*broken/);
  });

  it("answers a call that outlives the timeout with a clear error, and keeps serving", async () => {
    const slow = await call("slow", { steps: 30, ms: 100 });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toBe("The upstream server fx did not answer slow within 1 s.");
    expect(textOf(await call("digest", { text: "still here" }))).toMatch(/^length=10 /);
  });
});
