import { request, type IncomingMessage } from "node:http";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../config/config";
import { createEngine, type Engine } from "../engine/engine";
import { createHttpServer, type HttpEndpoint } from "../http/server";
import { memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { stall } from "../../tests/helpers/stalledRequest";
import { mountMcp, type McpHttp } from "./httpMcp";
import { createUpstreamManager, type UpstreamManager } from "./upstreamManager";

const TOKEN = "c".repeat(64);
/** Short, so that the stream below outlives it several times over. */
const REQUEST_TIMEOUT_MS = 300;

describe("MCP over HTTP under a short request timeout", () => {
  const home = tempHome("spillway-mcp-http-");
  let engine: Engine;
  let upstreams: UpstreamManager;
  let http: HttpEndpoint;
  let mcp: McpHttp;
  let url: string;

  beforeAll(async () => {
    engine = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    upstreams = createUpstreamManager(engine.config, engine.logger, () => engine.toolCatalog);
    http = createHttpServer({ port: 0, token: TOKEN, logger: engine.logger, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    mcp = mountMcp(http, { engine, upstreams });
    url = `${(await http.listen()).url}/mcp`;
  });
  afterAll(async () => {
    await http.close();
    await upstreams.close();
    await engine.close();
    home.cleanup();
  });

  const headers = (sid?: string): Record<string, string> => ({
    authorization: `Bearer ${TOKEN}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
    ...(sid ? { "mcp-session-id": sid } : {}),
  });

  it("keeps a client's GET /mcp stream open until the session ends", async () => {
    const init = await fetch(url, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "stream-test", version: "1" } },
      }),
    });
    const sid = init.headers.get("mcp-session-id")!;
    await init.text();
    const note = { jsonrpc: "2.0", method: "notifications/initialized" };
    expect((await fetch(url, { method: "POST", headers: headers(sid), body: JSON.stringify(note) })).status).toBe(202);

    const { port } = new URL(url);
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/mcp", headers: { ...headers(sid), host: `127.0.0.1:${port}` } }, resolve);
      req.on("error", reject);
      req.end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers["content-type"]).toMatch(/text\/event-stream/);
    let ended = false;
    stream.on("close", () => (ended = true));
    stream.resume();

    await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 6));
    expect(ended).toBe(false);
    expect(mcp.sessions()).toMatchObject([{ id: sid, streams: 1 }]);

    // Ending the session is what closes it.
    expect((await fetch(url, { method: "DELETE", headers: headers(sid) })).status).toBe(200);
    await vi.waitFor(() => expect(ended).toBe(true));
  });

  it("drops a POST whose body trickles in, with 408", async () => {
    const { port } = new URL(url);
    const head = `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{`;
    const answer = await stall(Number(port), head);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
