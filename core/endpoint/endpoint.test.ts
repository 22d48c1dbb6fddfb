import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { parseConfig } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { startEndpoint, type RunningEndpoint } from "./endpoint";

/** An upstream MCP server over Streamable HTTP in this process, with one resource. */
async function notesUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const mcp = new McpServer({ name: "notes", version: "1.0.0" });
  mcp.registerResource("note", "notes://one", { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: "one" }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const server: Server = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await mcp.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("spillway serve's endpoint: what every client is answered", () => {
  const home = tempHome("spillway-endpoint-");
  let notes: Awaited<ReturnType<typeof notesUpstream>>;
  let engine: Engine;
  let ep: RunningEndpoint;
  let token: string;
  let client: Client;
  const bearer = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    notes = await notesUpstream();
    engine = createEngine({
      home: home.path,
      config: parseConfig({ mcpServers: { notes: { type: "http", url: notes.url } } }),
      logger: memoryLogger(),
    });
    ep = await startEndpoint({ engine, home: home.path, port: 0 });
    token = ep.http.token;
    client = new Client({ name: "endpoint-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(ep.mcpUrl), { requestInit: { headers: bearer() } }));
  });
  afterAll(async () => {
    await client.close();
    await ep.close();
    await engine.close();
    await notes.close();
    home.cleanup();
  });

  it("says which methods /mcp takes when it refuses one", async () => {
    const put = await fetch(ep.mcpUrl, { method: "PUT", headers: bearer() });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("DELETE, GET, POST");
    expect(await put.json()).toMatchObject({
      ok: false,
      error: { code: "method_not_allowed", message: "PUT is not supported on /mcp: use DELETE, GET, POST." },
    });
  });

  it("marks every JSON answer nosniff: hooks, /mcp's own errors, the guard's", async () => {
    const post = (path: string, body: string, headers: Record<string, string> = bearer()) =>
      fetch(ep.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    const answers = [
      await post("/hooks/claude-code", "{}"),
      await post("/hooks/turn", JSON.stringify({ session_id: "s1" })),
      await post("/hooks/turn", JSON.stringify({ session_id: 5 })),
      await post("/mcp", "{"),
      await fetch(ep.mcpUrl, { headers: { ...bearer(), accept: "text/event-stream" } }),
      await post("/hooks/turn", "{}", {}),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 400, 400, 401]);
    for (const a of answers) {
      expect(a.headers.get("content-type")).toMatch(/^application\/json/);
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("gives resources/read refusals one MCP error head, Spillway's own and an upstream's", async () => {
    const read = (uri: string) =>
      client.readResource({ uri }).then(
        () => "read",
        (err: Error) => err.message,
      );
    expect(await read("spillway://blob/abcdefabcdef")).toBe(
      "MCP error -32602: There is no stored result abcdefabcdef in this session: check the id in the handle or stub.",
    );
    expect(await read("notes://missing")).toBe("MCP error -32602: Resource notes://missing not found");
    expect(await read("notes://one")).toBe("read");
  });
});
