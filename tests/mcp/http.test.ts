/**
 * The Streamable HTTP endpoint with real upstreams (server-memory, server-everything and two
 * fixture servers): access control, one Spillway session per MCP session, structured content.
 */
import { request } from "node:http";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, idIn, textOf, upstream } from "./helpers/setup";
import { tempHome } from "../helpers/tempHome";

function raw(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/mcp",
        headers: {
          host: `127.0.0.1:${port}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("spillway serve: MCP over Streamable HTTP", () => {
  const memDir = tempHome("spillway-mem-");
  let t: TestEndpoint;
  let a: { client: Client; transport: StreamableHTTPClientTransport };
  let b: { client: Client; transport: StreamableHTTPClientTransport };
  const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
    c.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    t = await startTestEndpoint({
      mcpServers: {
        mem: upstream.memory(join(memDir.path, "memory.jsonl")),
        ev: upstream.everything(),
        fx: upstream.fixture(),
        fx2: upstream.fixture(),
      },
    });
    a = await httpClient(t.ep.mcpUrl, t.token, "client-a");
    b = await httpClient(t.ep.mcpUrl, t.token, "client-b");
  });
  afterAll(async () => {
    await a?.client.close();
    await b?.client.close();
    await t?.close();
    memDir.cleanup();
  });

  it("refuses requests without the token (401), from a foreign Origin (403) or for a foreign Host (403)", async () => {
    const port = t.ep.port;
    expect(await raw(port, {})).toBe(401);
    expect(await raw(port, { authorization: `Bearer ${t.token}`, origin: "http://evil.example" })).toBe(403);
    expect(await raw(port, { authorization: `Bearer ${t.token}`, host: `rebind.example:${port}` })).toBe(403);
    expect(await raw(port, { authorization: `Bearer ${"0".repeat(64)}` })).toBe(401);
  });

  it("makes each MCP session its own Spillway session, named after its client", () => {
    const sa = t.engine.reader.session(a.transport.sessionId!);
    expect(sa?.client).toMatch(/^client-a/);
    expect(t.engine.reader.session(b.transport.sessionId!)?.client).toMatch(/^client-b/);
  });

  it("lists server-memory and server-everything tools, prefixing only the names two servers share", async () => {
    const names = (await a.client.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(["create_entities", "read_graph", "echo", "get-structured-content", "fx__digest", "fx2__digest"]),
    );
    expect(names).not.toContain("digest");
    expect((await a.client.listTools()).tools.every((x) => x.outputSchema === undefined)).toBe(true);
  });

  it("passes small results through untouched: text, structuredContent, images and resource links", async () => {
    expect(await call(a.client, "echo", { message: "hi" })).toEqual({ content: [{ type: "text", text: "Echo: hi" }] });
    const sc = await call(a.client, "get-structured-content", { location: "New York" });
    expect(sc.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const img = await call(a.client, "get-tiny-image");
    expect(img.content.some((c) => c.type === "image")).toBe(true);
    const links = await call(a.client, "get-resource-links", { count: 2 });
    expect(links.content.filter((c) => c.type === "resource_link")).toHaveLength(2);
  });

  it("stubs server-memory's echo of what it created, rescues its large graph (no outputSchema left to break), passes its small structured results", async () => {
    const entities = Array.from({ length: 2000 }, (_, i) => ({
      name: `entity-${i}`,
      entityType: "person",
      observations: [`observation ${i} about entity ${i}`],
    }));
    const created = await call(a.client, "create_entities", { entities });
    expect(created.isError).toBeFalsy();
    // create_entities answers the entities it was sent: the model wrote them, so it gets a stub.
    // Its structuredContent ({ entities }) is the whole arguments object: a stub as well.
    expect(textOf(created)).toContain("equal to the `entities` argument of this call");
    expect(textOf(created)).toContain("equal to the arguments of this call");
    expect(textOf(created).length).toBeLessThan(500);
    expect(created.structuredContent).toBeUndefined();
    const graph = await call(a.client, "read_graph");
    expect(textOf(graph)).toMatch(/PREVIEW/);
    const id = idIn(textOf(graph));
    const q = textOf(await call(a.client, "rescuer_fetch", { id, mode: "grep", pattern: "entity-1999\\b" }));
    expect(q).toContain("entity-1999");
    const small = await call(a.client, "search_nodes", { query: "entity-1234" });
    expect(small.structuredContent).toMatchObject({ entities: [expect.objectContaining({ name: "entity-1234" })] });
  });

  it("keeps one session's blobs from another: fetch, recall, resources/read and spill: all refuse", async () => {
    const handle = textOf(await call(a.client, "fx__big_log", { lines: 2000, seed: "private" }));
    const id = idIn(handle);
    expect((await call(a.client, "rescuer_fetch", { id, mode: "stat" })).isError).toBeFalsy();

    const f = await call(b.client, "rescuer_fetch", { id, mode: "grep", pattern: "private" });
    expect(f.isError).toBe(true);
    // the same answer as for an id that does not exist: b cannot tell that a holds it
    expect(textOf(f)).toBe(`There is no stored result ${id} in this session: check the id in the handle or stub.`);
    const r = await call(b.client, "recall_result", { result_id: id });
    expect(r.isError).toBe(true);
    await expect(b.client.readResource({ uri: `spillway://blob/${id}` })).rejects.toThrow(
      `There is no stored result ${id} in this session`,
    );
    const d = textOf(await call(b.client, "fx__digest", { text: `spill:${id}` }));
    expect(d).toMatch(/^length=18 /);
    expect(d).toMatch(/not expanded/);

    const own = await a.client.readResource({ uri: `spillway://blob/${id}` });
    expect((own.contents[0] as { text: string }).text).toContain("[private] step 1999");
  });
});
