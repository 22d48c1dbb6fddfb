/**
 * Startup without waiting for upstreams: `spillway mcp` over real stdio in front of a real upstream
 * process that the test holds back (fixtures/gatedServer.ts waits for a gate file before it answers).
 * What a user sees: the tools listed at once from the catalog of the last run, a call that waits for
 * its server to come up, tools/list_changed when the fresh list differs, a first-ever start that
 * answers within its bound, and no old list once the server's config entry changed.
 */
import { existsSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { startEndpoint } from "../../core/endpoint/endpoint";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { httpClient, ROOT, stdioClient, textOf, writeConfig } from "./helpers/setup";

const GATED = join(ROOT, "tests/mcp/fixtures/gatedServer.ts");
const OWN = ["recall_result", "rescuer_fetch"];

/** Resolves once `check()` holds, re-checking whenever a file in `dir` changes. */
function whenFiles(dir: string, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (check()) {
        watcher.close();
        resolve();
      }
    });
    if (check()) {
      watcher.close();
      resolve();
    }
  });
}

/** Counts tools/list_changed notifications; `next()` resolves at the next one. */
function listChanges(client: Client): { next(): Promise<void> } {
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    const w = waiters;
    waiters = [];
    for (const r of w) r();
  });
  return { next: () => new Promise<void>((r) => waiters.push(r)) };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

describe("spillway mcp starts without waiting for its upstreams", () => {
  let home: ReturnType<typeof tempHome>;
  let files: ReturnType<typeof tempHome>;
  const clients: Client[] = [];
  const gate = () => join(files.path, "gate");
  const toolsFile = () => join(files.path, "tools.txt");
  const startedFile = () => join(files.path, "started");
  const stoppedFile = () => join(files.path, "stopped");
  const pids = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);
  const open = () => writeFileSync(gate(), "");
  const shut = () => rmSync(gate(), { force: true });
  const gated = (env: Record<string, string> = {}) => ({
    command: process.execPath,
    args: ["--import", "tsx", GATED],
    cwd: ROOT,
    env: { GATE_FILE: gate(), TOOLS_FILE: toolsFile(), STARTED_FILE: startedFile(), STOPPED_FILE: stoppedFile(), ...env },
  });
  const connect = async () => {
    const c = await stdioClient(home.path);
    clients.push(c);
    return c;
  };
  /** One run with the gate open, so the catalog holds the upstream's list. */
  const fillCatalog = async (config: Record<string, unknown>) => {
    writeConfig(home.path, config);
    open();
    const c = await connect();
    const listed = await names(c);
    await c.close();
    return listed;
  };

  beforeEach(() => {
    home = tempHome("spillway-startup-home-");
    files = tempHome("spillway-startup-files-");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    home.cleanup();
    files.cleanup();
  });

  it("lists a held-back upstream's tools from the catalog, and a call to one waits for the upstream to come up", async () => {
    expect(await fillCatalog({ mcpServers: { gated: gated() } })).toEqual([...OWN, "shout"].sort());
    shut();
    const c = await connect();
    // The upstream cannot answer (its gate is shut): this list is the cached one.
    expect(await names(c)).toEqual([...OWN, "shout"].sort());
    let settled = false;
    const call = (c.callTool({ name: "shout", arguments: { text: "still starting" } }) as Promise<CallToolResult>).finally(
      () => (settled = true),
    );
    await whenFiles(files.path, () => pids(startedFile()).length >= 2);
    expect(settled).toBe(false);
    open();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("STILL STARTING");
  });

  it("sends tools/list_changed when the upstream's fresh list differs from the cached one", async () => {
    writeFileSync(toolsFile(), "alpha");
    expect(await fillCatalog({ mcpServers: { gated: gated() } })).toContain("alpha");
    shut();
    writeFileSync(toolsFile(), "beta");
    const c = await connect();
    const changes = listChanges(c);
    expect(await names(c)).toEqual([...OWN, "alpha", "shout"].sort());
    const changed = changes.next();
    open();
    await changed;
    expect(await names(c)).toEqual([...OWN, "beta", "shout"].sort());
    expect(textOf(await c.callTool({ name: "beta", arguments: {} }))).toBe("beta works");
  });

  it("answers a first-ever start within its bound, and the upstream's tools follow with tools/list_changed", async () => {
    writeConfig(home.path, { server: { firstListWaitMs: 200 }, mcpServers: { gated: gated() } });
    const c = await connect();
    const changes = listChanges(c);
    // No catalog yet and the upstream held back: the answer comes without it.
    expect(await names(c)).toEqual(OWN);
    const changed = changes.next();
    open();
    await changed;
    expect(await names(c)).toEqual([...OWN, "shout"].sort());
  });

  it("never serves the cached list of a server whose config entry changed since", async () => {
    writeFileSync(toolsFile(), "alpha");
    expect(await fillCatalog({ mcpServers: { gated: gated({ VARIANT: "1" }) } })).toContain("alpha");
    shut();
    writeFileSync(toolsFile(), "beta");
    writeConfig(home.path, { server: { firstListWaitMs: 200 }, mcpServers: { gated: gated({ VARIANT: "2" }) } });
    const c = await connect();
    const changes = listChanges(c);
    expect(await names(c)).toEqual(OWN);
    const changed = changes.next();
    open();
    await changed;
    expect(await names(c)).toEqual([...OWN, "beta", "shout"].sort());
  });

  it("stops an upstream that is still starting when its client goes away", async () => {
    writeConfig(home.path, { server: { firstListWaitMs: 0 }, mcpServers: { gated: gated() } });
    const c = await connect();
    await names(c);
    await whenFiles(files.path, () => pids(startedFile()).length >= 1);
    const [pid] = pids(startedFile());
    await c.close();
    await whenFiles(files.path, () => pids(stoppedFile()).includes(pid!));
  });

  it("spillway serve answers tools/list from the catalog a stdio run left in the same home", async () => {
    const config = { mcpServers: { gated: gated() } };
    await fillCatalog(config);
    shut();
    const engine = createEngine({ home: home.path, config: parseConfig(config), logger: memoryLogger() });
    const ep = await startEndpoint({ engine, home: home.path, port: 0 });
    try {
      const token = readFileSync(join(home.path, "token"), "utf8").trim();
      const { client } = await httpClient(ep.mcpUrl, token);
      clients.push(client);
      expect(await names(client)).toEqual([...OWN, "shout"].sort());
      expect(ep.upstreams.status()).toMatchObject([{ name: "gated", tools: 1 }]);
    } finally {
      await ep.close();
      await engine.close();
    }
  });
});
