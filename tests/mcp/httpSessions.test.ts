/**
 * Lifetimes of MCP sessions over Streamable HTTP, with real SDK clients and a fake clock: sessions
 * left without DELETE are reaped after the idle timeout, and past server.maxSessions the least
 * recently used one nothing holds makes room (a connected client's never does), or a new one is
 * refused with a sentence when all are held.
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

  it("at the cap, closes the least recently used session nothing holds for a new one, never a connected client's", async () => {
    // open now: kept, still connected; two more reach the cap of 3, and their clients leave without DELETE
    const second = await connect("second");
    const third = await connect("third");
    const secondId = second.transport.sessionId!;
    await second.client.close();
    await until(() => info(second)?.streams === 0);
    clock.advance(MIN);
    await third.client.close();
    await until(() => info(third)?.streams === 0);
    clock.advance(MIN);
    const keptId = open[0]!.transport.sessionId!;
    await connect("fourth");
    const ids = () => t.ep.mcp.sessions().map((s) => s.id);
    expect(ids()).toHaveLength(3);
    // the oldest session is the connected one, yet the one a client left goes
    expect(ids()).toContain(keptId);
    expect(ids()).not.toContain(secondId);
    const late = await post(secondId);
    expect(late.status).toBe(404);
    expect(late.json.error.message).toBe(
      `Session ${secondId} was closed to make room for a newer one (server.maxSessions is 3); initialize a new one.`,
    );
    await connect("fifth");
    expect(ids()).not.toContain(third.transport.sessionId);
  });

  it("refuses a new session with a sentence when every open one is held, and takes it once one is free", async () => {
    const live = open.filter((c) => info(c) !== undefined);
    expect(live).toHaveLength(3);
    // Each SDK client opens its notification stream right after initialize.
    await until(() => live.every((c) => info(c)?.streams === 1));
    const started: Promise<void>[] = [];
    const calls = live.map(({ client }) => {
      let seen: () => void;
      started.push(new Promise<void>((r) => (seen = r)));
      return client.callTool({ name: "slow", arguments: { steps: 3, ms: 100 } }, undefined, {
        onprogress: () => seen(),
      }) as Promise<CallToolResult>;
    });
    await Promise.all(started);
    await expect(httpClient(t.ep.mcpUrl, t.token, "sixth")).rejects.toThrow(
      /already has 3 MCP sessions open, all busy, which is its limit \(server\.maxSessions\): 3 with a request being answered; none is closed for a new one/,
    );
    for (const r of await Promise.all(calls)) expect(textOf(r)).toBe("done after 3 steps");
    // Their calls are done, but their clients are still connected, listening for notifications.
    await expect(httpClient(t.ep.mcpUrl, t.token, "sixth")).rejects.toThrow(/3 with a client listening on an open stream/);
    const leaving = live[1]!;
    await leaving.client.close();
    await until(() => info(leaving)?.streams === 0);
    const sixth = await connect("sixth");
    expect(sixth.transport.sessionId).toBeTruthy();
    expect(t.ep.mcp.sessions().map((s) => s.id)).not.toContain(leaving.transport.sessionId);
  });
});
