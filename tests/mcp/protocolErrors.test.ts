/**
 * What a broken or hostile client gets: JSON-RPC errors with the standard codes and one sentence,
 * over stdio (`spillway mcp`, driven by raw bytes) and over Streamable HTTP; the server keeps serving.
 */
import { tempHome } from "../helpers/tempHome";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { rawStdio, type RawMessage, type RawStdio } from "./helpers/rawStdio";
import { upstream, writeConfig } from "./helpers/setup";

/** One sentence: no second sentence starting after a full stop, no zod issue list. */
function expectOneSentence(message: string | undefined): void {
  expect(message).toMatch(/\.$/);
  expect(message).not.toMatch(/\. [A-Z]/);
  expect(message).not.toMatch(/[[{]\s*"(code|expected|path)"/);
}

const NUL_RAW = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":31,"method":"tools/'), Buffer.from([0]), Buffer.from('list"}')]);

describe("spillway mcp: malformed input over stdio", () => {
  const home = tempHome("spillway-proto-");
  let raw: RawStdio;
  beforeAll(async () => {
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture() } });
    raw = rawStdio(home.path);
    await raw.initialize();
  });
  afterAll(async () => {
    await raw?.close();
    home.cleanup();
  });

  const answer = async (line: Buffer | string): Promise<RawMessage> => {
    raw.write(Buffer.concat([typeof line === "string" ? Buffer.from(line) : line, Buffer.from("\n")]));
    return raw.next();
  };

  it.each([
    ["malformed JSON", '{"jsonrpc":"2.0","id":1,"method":"tools/list"', -32700, null, /not valid JSON/],
    ["a line that is not JSON", "hello, server", -32700, null, /not valid JSON/],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), -32700, null, /not valid UTF-8/],
    ["a raw NUL byte in the method", NUL_RAW, -32700, null, /not valid JSON/],
    [
      "an escaped NUL in the method",
      '{"jsonrpc":"2.0","id":32,"method":"tools/\\u0000list"}',
      -32600,
      32,
      /"method" contains a control character/,
    ],
    ["no jsonrpc member", '{"id":33,"method":"tools/list"}', -32600, 33, /"jsonrpc" must be "2\.0"/],
    ["a batch", '[{"jsonrpc":"2.0","id":34,"method":"ping"}]', -32600, null, /batches are not accepted/],
  ])("answers %s with a JSON-RPC error", async (_what, line, code, id, message) => {
    const m = await answer(line as string | Buffer);
    expect(m.error?.code).toBe(code);
    expect(m.id ?? null).toBe(id);
    expect(m.error?.message).toMatch(message as RegExp);
    expectOneSentence(m.error?.message);
  });

  it("answers a non-string uri and an object cursor with -32602 naming the parameter", async () => {
    const uri = await raw.request(40, "resources/read", { uri: 5 });
    expect(uri.error).toEqual({ code: -32602, message: 'Invalid params for resources/read: "uri" must be a string, not a number.' });
    const cursor = await raw.request(41, "tools/list", { cursor: { page: 2 } });
    expect(cursor.error).toEqual({ code: -32602, message: 'Invalid params for tools/list: "cursor" must be a string, not an object.' });
    const name = await raw.request(42, "tools/call", { arguments: {} });
    expect(name.error).toEqual({ code: -32602, message: 'Invalid params for tools/call: "name" is required.' });
  });

  it("keeps serving after all of it", async () => {
    const r = await raw.request(50, "tools/call", { name: "digest", arguments: { text: "ok" } });
    expect(r.result?.content?.[0]?.text).toMatch(/^length=2 /);
    expect(raw.child.exitCode).toBeNull();
  });
});

describe("spillway serve: malformed input over Streamable HTTP", () => {
  let t: TestEndpoint;
  let sid: string;
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${t.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extra,
  });
  /** POSTs a body as is; reads a JSON body or the first SSE message. */
  const post = async (body: string | Buffer, withSession = true): Promise<{ status: number; msg: RawMessage | null }> => {
    const res = await fetch(t.ep.mcpUrl, {
      method: "POST",
      headers: headers(withSession ? { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" } : {}),
      body: new Uint8Array(typeof body === "string" ? Buffer.from(body) : body),
    });
    const text = await res.text();
    if (!text) return { status: res.status, msg: null };
    const data = res.headers.get("content-type")?.startsWith("text/event-stream") ? /^data: (.*)$/m.exec(text)![1]! : text;
    return { status: res.status, msg: JSON.parse(data) as RawMessage };
  };

  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { fx: upstream.fixture() } });
    const init = await fetch(t.ep.mcpUrl, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw-http", version: "1" } },
      }),
    });
    sid = init.headers.get("mcp-session-id")!;
    await init.text();
    await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  });
  afterAll(async () => t?.close());

  it.each([
    ["an empty batch", "[]", -32600, /the batch is empty/],
    ["malformed JSON", '{"jsonrpc":"2.0","id":1,', -32700, /not valid JSON/],
    ["a body that is not JSON", "hello", -32700, /not valid JSON/],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), -32700, /not valid UTF-8/],
    [
      "an escaped NUL in the method",
      '{"jsonrpc":"2.0","id":7,"method":"tools/\\u0000list"}',
      -32600,
      /"method" contains a control character/,
    ],
    [
      "a batch with a bad member",
      '[{"jsonrpc":"2.0","id":8,"method":"ping"},{"id":9}]',
      -32600,
      /message 2 of the batch is wrong: "jsonrpc" must be "2\.0"/,
    ],
    ["an empty body", "", -32700, /the request body is empty/],
  ])("answers %s with 400 and a JSON-RPC error", async (_what, body, code, message) => {
    const r = await post(body as string | Buffer);
    expect(r.status).toBe(400);
    expect(r.msg?.error?.code).toBe(code);
    expect(r.msg?.error?.message).toMatch(message as RegExp);
    expectOneSentence(r.msg?.error?.message);
  });

  it("answers a non-string uri and an object cursor with -32602 naming the parameter", async () => {
    const uri = await post(JSON.stringify({ jsonrpc: "2.0", id: 20, method: "resources/read", params: { uri: 5 } }));
    expect(uri.msg).toMatchObject({
      id: 20,
      error: { code: -32602, message: 'Invalid params for resources/read: "uri" must be a string, not a number.' },
    });
    const cursor = await post(JSON.stringify({ jsonrpc: "2.0", id: 21, method: "tools/list", params: { cursor: {} } }));
    expect(cursor.msg).toMatchObject({
      id: 21,
      error: { code: -32602, message: 'Invalid params for tools/list: "cursor" must be a string, not an object.' },
    });
  });

  it("answers an initialize with bad params with -32602 instead of asking for an initialize", async () => {
    const r = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 30, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } }),
      false,
    );
    expect(r.status).toBe(400);
    expect(r.msg).toMatchObject({ id: 30, error: { code: -32602, message: 'Invalid params for initialize: "clientInfo" is required.' } });
  });

  it("takes a 30 MB body, refuses one over 64 MB with 413 naming the limit, and keeps serving", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 60, method: "tools/call", params: { name: "digest", arguments: {} } });
    const thirty = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 61,
        method: "tools/call",
        params: { name: "recall_result", arguments: { result_id: "q".repeat(30 * 1024 * 1024) } },
      }),
    );
    expect(thirty.status).toBe(200);
    expect(thirty.msg?.result?.content?.[0]?.text).toMatch(/is not a valid result id/);
    const over = await post(big.replace("{}", JSON.stringify({ text: "x".repeat(65 * 1024 * 1024) })));
    expect(over.status).toBe(413);
    expect(over.msg?.error?.code).toBe(-32600);
    expect(over.msg?.error?.message).toMatch(/over the 64\.0 MB limit of one message/);
    const ok = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 62, method: "tools/call", params: { name: "digest", arguments: { text: "ok" } } }),
    );
    expect(ok.msg?.result?.content?.[0]?.text).toMatch(/^length=2 /);
  });
});
