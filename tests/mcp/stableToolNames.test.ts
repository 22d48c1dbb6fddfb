/**
 * Tool names an agent was offered stay valid for the life of `spillway mcp`: server-everything
 * (which has `echo`) and, added to the config later, a server that starts slowly and has `echo`
 * too (fixtures/gatedServer.ts, held back by a gate file). Over real stdio, as a host sees it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { ROOT, stdioClient, textOf, upstream, writeConfig } from "./helpers/setup";

const GATED = join(ROOT, "tests/mcp/fixtures/gatedServer.ts");

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
const call = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe("a tool name once offered keeps its server", () => {
  let home: ReturnType<typeof tempHome>;
  let files: ReturnType<typeof tempHome>;
  const clients: Client[] = [];
  const gate = () => join(files.path, "gate");
  const late = () => ({
    command: process.execPath,
    args: ["--import", "tsx", GATED],
    cwd: ROOT,
    env: { GATE_FILE: gate(), TOOLS_FILE: join(files.path, "tools.txt") },
  });
  const connect = async () => {
    const c = await stdioClient(home.path);
    clients.push(c);
    return c;
  };

  beforeEach(() => {
    home = tempHome("spillway-names-home-");
    files = tempHome("spillway-names-files-");
    writeFileSync(join(files.path, "tools.txt"), "echo");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    home.cleanup();
    files.cleanup();
  });

  it("when a slow server with the same name lists later, only the newcomer is prefixed; an unknown bare name names the prefixed ones", async () => {
    // A first run with server-everything alone: the catalog then holds its list.
    writeConfig(home.path, { mcpServers: { everything: upstream.everything() } });
    const first = await connect();
    expect(await names(first)).toContain("echo");
    await first.close();

    // The slow server is added; it is held back, so the first list is everything's, from the catalog.
    writeConfig(home.path, { server: { firstListWaitMs: 200 }, mcpServers: { everything: upstream.everything(), late: late() } });
    const c = await connect();
    const listed = await names(c);
    expect(listed).toContain("echo");
    expect(listed.filter((n) => n.endsWith("echo"))).toEqual(["echo"]);
    expect(textOf(await call(c, "echo", { message: "one" }))).toBe("Echo: one");

    const lateListed = new Promise<void>((resolve) =>
      c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        if ((await names(c)).includes("late__echo")) resolve();
      }),
    );
    expect(existsSync(gate())).toBe(false);
    writeFileSync(gate(), "");
    await lateListed;

    const after = await names(c);
    expect(after.filter((n) => n.endsWith("echo")).sort()).toEqual(["echo", "late__echo"]);
    expect(new Set(after).size).toBe(after.length);
    expect(textOf(await call(c, "echo", { message: "two" }))).toBe("Echo: two");
    expect(textOf(await call(c, "late__echo"))).toBe("echo works");
    // The name the clash would give it reaches it too, unlisted.
    expect(textOf(await call(c, "everything__echo", { message: "three" }))).toBe("Echo: three");
    await c.close();

    // A new process, with both lists cached, starts with nothing offered yet: both are prefixed,
    // and a call to the bare name says which names it has now.
    const next = await connect();
    const miss = await call(next, "echo", { message: "four" });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/^There is no tool named echo behind Spillway: .*everything__echo, late__echo\.$/);
    expect((await names(next)).filter((n) => n.endsWith("echo")).sort()).toEqual(["everything__echo", "late__echo"]);
  });
});
