/**
 * A server entry moved over from Claude Code or Cursor with its token as a placeholder
 * (`"Authorization": "Bearer ${API_TOKEN}"`): Spillway fills it in from its environment when it
 * starts the server, as the agent would, and says which variable is missing when one is.
 */
import { createServer, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, textOf } from "./helpers/setup";

/** A Streamable HTTP server (the real SDK) that answers only requests bearing `token`. */
async function guardedServer(token: string): Promise<{ url: string; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const http: Server = createServer(async (req, res) => {
    seen.push(req.headers.authorization ?? "");
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end("bad token");
      return;
    }
    const server = new McpServer({ name: "guarded", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says who you are." }, async () => ({
      content: [{ type: "text", text: "a token holder" }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`, seen, close: () => http.close() };
}

describe("${VAR} placeholders in a server entry", () => {
  let guarded: Awaited<ReturnType<typeof guardedServer>>;
  let t: TestEndpoint;
  beforeAll(async () => {
    process.env.SPILLWAY_TEST_API_TOKEN = "tok-81f2";
    delete process.env.SPILLWAY_TEST_UNSET;
    guarded = await guardedServer("tok-81f2");
    t = await startTestEndpoint({
      mcpServers: {
        api: { url: guarded.url, headers: { Authorization: "Bearer ${SPILLWAY_TEST_API_TOKEN}" } },
        other: { url: guarded.url, headers: { Authorization: "Bearer ${env:SPILLWAY_TEST_UNSET}" } },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    guarded?.close();
    delete process.env.SPILLWAY_TEST_API_TOKEN;
  });

  it("are filled in from the environment when the server starts; a missing one is named", async () => {
    const { client } = await httpClient(t.ep.mcpUrl, t.token);
    try {
      const r = (await client.callTool({ name: "whoami", arguments: {} })) as CallToolResult;
      expect(textOf(r)).toBe("a token holder");
      expect(guarded.seen).toContain("Bearer tok-81f2");
      expect(guarded.seen.some((h) => h.includes("${"))).toBe(false);
      expect(t.ep.upstreams.status().find((u) => u.name === "other")).toMatchObject({
        state: "down",
        lastError: expect.stringMatching(/the entry uses \$\{SPILLWAY_TEST_UNSET\}, which is not set in Spillway's environment/),
      });
    } finally {
      await client.close();
    }
  });
});
