/**
 * Lifetimes of MCP sessions over Streamable HTTP, with real SDK clients and a fake clock: sessions
 * left without DELETE are reaped after the idle timeout, and past server.maxSessions the least
 * recently used idle one makes room, or a new one is refused with a sentence when all are busy.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { FakeClock } from "../../core/runtime";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient, textOf, upstream } from "./helpers/setup";

const MIN = 60_000;
type Conn = { client: Client; transport: StreamableHTTPClientTransport };

/** Resolves once `cond` holds, checking after each turn of I/O (the server learns of closed sockets asynchronously). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

describe("spillway serve: MCP session lifetimes", () => {
  const clock = new FakeClock();
  let t: TestEndpoint;
  const open: Conn[] = [];
  const connect = async (name: string) => {
    const c = await httpClient(t.ep.mcpUrl, t.token, name);
    open.push(c);
    return c;
  };
  const info = (c: Conn) => t.ep.mcp.sessions().find((s) => s.id === c.transport.sessionId);
  const post = (sid: string) =>
    fetch(t.ep.mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${t.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sid,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as { error: { code: number; message: string } } }));

  beforeAll(async () => {
    t = await startTestEndpoint({ server: { sessionIdleMinutes: 30, maxSessions: 3 }, mcpServers: { fx: upstream.fixture() } }, { clock });
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.client.close()));
    await t?.close();
  });

  it("reaps a session closed without DELETE after 30 idle minutes and tells its late client why", async () => {
    const kept = await connect("kept");
    const gone = await connect("gone");
    const goneId = gone.transport.sessionId!;
    await gone.client.close(); // no DELETE, as most clients leave
    await until(() => info(gone)?.streams === 0);

    clock.advance(20 * MIN);
    expect(await t.ep.mcp.reapIdle()).toBe(0);
    clock.advance(11 * MIN);
    expect(await t.ep.mcp.reapIdle()).toBe(1);

    expect(t.ep.mcp.sessions().map((s) => s.id)).toEqual([kept.transport.sessionId]);
    const late = await post(goneId);
    expect(late.status).toBe(404);
    expect(late.json.error.message).toBe(`Session ${goneId} was closed after 30 min without use; initialize a new one.`);
    // a client still connected (its notification stream open) is never idle
    expect((await kept.client.callTool({ name: "digest", arguments: { text: "still here" } })).isError).toBeFalsy();
  });

  it("at the cap, closes the least recently used idle session for a new one", async () => {
    // open now: kept; two more reach the cap of 3
    const second = await connect("second");
    clock.advance(MIN);
    await connect("third");
    clock.advance(MIN);
    await second.client.callTool({ name: "digest", arguments: { text: "recent" } });
    const kept = open[0]!;
    const keptId = kept.transport.sessionId!;
    await connect("fourth");
    expect(t.ep.mcp.sessions()).toHaveLength(3);
    expect(t.ep.mcp.sessions().map((s) => s.id)).not.toContain(keptId);
    const late = await post(keptId);
    expect(late.json.error.message).toBe(
      `Session ${keptId} was closed to make room for a newer one (server.maxSessions is 3); initialize a new one.`,
    );
  });

  it("refuses a new session with a sentence when every open one has a call in flight, and takes it once one is free", async () => {
    const live = open.slice(-3);
    const started: Promise<void>[] = [];
    const calls = live.map(({ client }) => {
      let seen: () => void;
      started.push(new Promise<void>((r) => (seen = r)));
      return client.callTool({ name: "slow", arguments: { steps: 3, ms: 100 } }, undefined, {
        onprogress: () => seen(),
      }) as Promise<CallToolResult>;
    });
    await Promise.all(started);
    await expect(httpClient(t.ep.mcpUrl, t.token, "fifth")).rejects.toThrow(
      /already has 3 MCP sessions open, all busy, which is its limit \(server\.maxSessions\)/,
    );
    for (const r of await Promise.all(calls)) expect(textOf(r)).toBe("done after 3 steps");
    const fifth = await connect("fifth");
    expect(fifth.transport.sessionId).toBeTruthy();
    expect(t.ep.mcp.sessions()).toHaveLength(3);
  });
});
