/**
 * A Streamable HTTP upstream that goes away: the real server-everything, stopped and started again
 * on the same port. Its sessions die with it, so Spillway must start a new one rather than keep
 * sending the old id; a call running when it died fails at once, not at the timeout; and while it
 * is down the agent is told it cannot be reached, with the network's reason.
 */
import type { ChildProcess } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { everythingOver, freePort } from "./helpers/everythingHttp";
import { httpClient, textOf } from "./helpers/setup";

const everythingHttp = (port: number) => everythingOver("streamableHttp", port);

const stop = async (c: ChildProcess) => {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => c.once("exit", () => resolve()));
  c.kill("SIGKILL");
  await gone;
};

describe("a Streamable HTTP upstream that restarts", () => {
  let port: number;
  let everything: ChildProcess;
  let t: TestEndpoint;
  let client: Client;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;
  /** Calls until one answers (the restart backoff is a few seconds at most), or 20 tries. */
  const callUntilUp = async (message: string) => {
    let r: CallToolResult | null = null;
    for (let i = 0; i < 20 && !(r && !r.isError); i++) {
      r = await call("echo", { message });
      if (r.isError) await new Promise((res) => setTimeout(res, 500));
    }
    return r!;
  };

  beforeAll(async () => {
    port = await freePort();
    everything = await everythingHttp(port);
    // A long timeout: a call left waiting on a dead stream would take all of it.
    t = await startTestEndpoint({
      server: { upstreamTimeoutMs: 90_000 },
      mcpServers: { ev: { type: "http", url: `http://127.0.0.1:${port}/mcp` } },
    });
    client = (await httpClient(t.ep.mcpUrl, t.token)).client;
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    if (everything) await stop(everything);
  });

  it("says it cannot be reached while it is down, and starts a new session once it is back", async () => {
    expect(textOf(await call("echo", { message: "one" }))).toBe("Echo: one");
    await stop(everything);
    const down = await call("echo", { message: "anyone?" });
    expect(down.isError).toBe(true);
    // Whichever the call met (the broken stream closed the connection, or its POST was refused): said, never "refused echo".
    expect(textOf(down)).toMatch(
      /^The upstream server ev (stopped while running echo|could not be reached for echo \(.*ECONNREFUSED|could not be started: cannot connect \(.*ECONNREFUSED)/,
    );
    everything = await everythingHttp(port);
    // The old session died with the old process; the old id would be refused for good.
    expect(textOf(await callUntilUp("two"))).toBe("Echo: two");
  }, 60_000);

  it("after a restart it did not see, the next call runs on a new session", async () => {
    expect(textOf(await call("echo", { message: "before" }))).toBe("Echo: before");
    await stop(everything);
    everything = await everythingHttp(port);
    const after = await callUntilUp("after");
    expect(textOf(after)).toBe("Echo: after");
  }, 60_000);

  it("a call running when the server dies fails with a sentence, not at the timeout", async () => {
    expect(textOf(await call("echo", { message: "ready" }))).toBe("Echo: ready");
    const running = call("trigger-long-running-operation", { duration: 30, steps: 30 });
    await new Promise((r) => setTimeout(r, 1500));
    await stop(everything);
    const r = await running;
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toMatch(/did not answer/);
    expect(textOf(r)).toMatch(/^The upstream server ev (stopped while running|could not be reached for) trigger-long-running-operation/);
    everything = await everythingHttp(port);
    expect(textOf(await callUntilUp("again"))).toBe("Echo: again");
  }, 60_000);
});
