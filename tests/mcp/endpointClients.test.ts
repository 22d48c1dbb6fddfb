/**
 * The Endpoint page's sessions: a client that is there (its notification stream open) is
 * "connected", with the name and version it gave at initialize and when it opened the session;
 * one that went away without a DELETE stays listed (until it has been idle long enough to close)
 * but no longer as connected.
 */
import { join } from "node:path";
import { mountInspector } from "../../core/inspector/web";
import type { ClientInfo } from "../../core/inspector/api/dto";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { httpClient } from "./helpers/setup";

describe("the Endpoint page's MCP sessions", () => {
  let t: TestEndpoint;
  const clients = async (): Promise<ClientInfo[]> => (await t.post("/api/endpoint.status", {})).json.value.clients;
  const until = async (ok: (c: ClientInfo[]) => boolean): Promise<ClientInfo[]> => {
    for (let i = 0; i < 100; i++) {
      const c = await clients();
      if (ok(c)) return c;
      await new Promise((r) => setTimeout(r, 50));
    }
    return clients();
  };

  beforeAll(async () => {
    t = await startTestEndpoint();
    mountInspector(t.ep, { engine: t.engine, home: t.home, configPath: join(t.home, "config.json") });
  });
  afterAll(() => t?.close());

  it("names a client that is there as connected, and one that left without a word as idle, with when it opened", async () => {
    const { client, transport } = await httpClient(t.ep.mcpUrl, t.token, "agent-a");
    const opened = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    await client.listTools();
    const live = await until((c) => c.some((x) => x.listening));
    const a = live.find((x) => x.sessionId === transport.sessionId)!;
    expect(a).toMatchObject({ name: "agent-a", version: "1.0.0", listening: true });
    expect(Math.abs(a.connectedAt - opened)).toBeLessThan(1_000);
    expect(a.lastSeenAt).toBeGreaterThan(a.connectedAt);

    // Gone without a DELETE (killed): its stream closes; the session is still open, no longer connected.
    await transport.close();
    const after = await until((c) => c.every((x) => !x.listening));
    const gone = after.find((x) => x.sessionId === a.sessionId)!;
    expect(gone).toMatchObject({ name: "agent-a", listening: false, connectedAt: a.connectedAt });
  });
});
