/**
 * An upstream that hangs at start, behind `spillway serve` with several agent sessions: the first
 * session's tools/list waits for it up to firstListWaitMs and answers without it; sessions that
 * start later do not wait for it again; once it answers, its tools reach every session.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { ROOT, httpClient } from "./helpers/setup";

const GATED = join(ROOT, "tests/mcp/fixtures/gatedServer.ts");
const WAIT_MS = 3_000;

describe("an upstream that hangs at start, with several sessions", () => {
  const dir = mkdtempSync(join(tmpdir(), "spillway-hang-"));
  const gate = join(dir, "gate");
  let t: TestEndpoint;
  const clients: Client[] = [];
  const session = async (name: string) => {
    const { client } = await httpClient(t.ep.mcpUrl, t.token, name);
    clients.push(client);
    return client;
  };
  const listed = async (c: Client) => {
    const started = Date.now();
    const names = (await c.listTools()).tools.map((x) => x.name).sort();
    return { names, ms: Date.now() - started };
  };

  beforeAll(async () => {
    t = await startTestEndpoint({
      server: { firstListWaitMs: WAIT_MS },
      mcpServers: {
        slow: {
          command: process.execPath,
          args: ["--import", "tsx", GATED],
          cwd: ROOT,
          env: { GATE_FILE: gate, TOOLS_FILE: join(dir, "tools"), STARTED_FILE: join(dir, "started"), STOPPED_FILE: join(dir, "stopped") },
        },
      },
    });
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("makes only the first session wait for it, and its tools reach every session once it answers", async () => {
    const first = await listed(await session("agent-1"));
    expect(first.names).toEqual(["recall_result", "rescuer_fetch"]);
    expect(first.ms).toBeGreaterThanOrEqual(WAIT_MS - 100);
    // The next sessions (a second agent, a subagent) get their list without the same wait.
    const second = await session("agent-2");
    const again = await listed(second);
    expect(again.names).toEqual(["recall_result", "rescuer_fetch"]);
    expect(again.ms).toBeLessThan(WAIT_MS / 2);
    expect((await listed(await session("agent-3"))).ms).toBeLessThan(WAIT_MS / 2);
    // Once it answers, the sessions hear that the list changed and find its tool.
    const changed = new Promise<void>((resolve) => second.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
    writeFileSync(gate, "open");
    await changed;
    expect((await listed(second)).names).toContain("shout");
  });
});
