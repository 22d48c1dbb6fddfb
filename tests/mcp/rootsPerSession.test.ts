/**
 * Two agents on one `spillway serve` (HTTP), each with its own project as its MCP roots, in front
 * of the real server-filesystem, which takes its client's roots as its access scope. Each agent
 * must work in its own roots, as with two direct connections: not in the other's, and not refused
 * its own because the other connected first.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { tempHome } from "../helpers/tempHome";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { textOf, upstream } from "./helpers/setup";

describe("two agents on one serve, each with its own roots, in front of server-filesystem", { timeout: 60_000 }, () => {
  const files = tempHome("spillway-roots-projects-");
  const dir = (name: string, file: string, text: string) => {
    const d = join(files.path, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, file), text);
    return realpathSync(d);
  };
  const shared = dir("configured", "readme.txt", "configured dir");
  const projectA = dir("project-a", "a.txt", "A private");
  const projectB = dir("project-b", "b.txt", "B own");
  const projectB2 = dir("project-b2", "b2.txt", "B moved on");
  let t: TestEndpoint;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestEndpoint({ mcpServers: { fs: upstream.filesystem(shared) } });
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await t?.close();
    files.cleanup();
  });

  async function agent(name: string, roots: () => string[]): Promise<Client> {
    const c = new Client({ name, version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
    c.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots().map((d) => ({ uri: pathToFileURL(d).href, name: d })) }));
    await c.connect(
      new StreamableHTTPClientTransport(new URL(t.ep.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${t.token}` } } }),
    );
    clients.push(c);
    return c;
  }
  const read = async (c: Client, path: string) => {
    const r = (await c.callTool({ name: "read_text_file", arguments: { path } })) as CallToolResult;
    return r.isError ? `denied: ${textOf(r)}` : textOf(r);
  };
  const allowed = async (c: Client) => textOf((await c.callTool({ name: "list_allowed_directories", arguments: {} })) as CallToolResult);
  /** server-filesystem takes new roots in the background after roots/list_changed: wait until it has. */
  async function until(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it("each works in its own roots only, whoever connected first, and a change of one's roots leaves the other's alone", async () => {
    const a = await agent("agent-a", () => [projectA]);
    await until(async () => (await allowed(a)).includes(projectA));
    expect(await allowed(a)).toContain(projectA);
    expect(await read(a, join(projectA, "a.txt"))).toBe("A private");

    let rootsB = [projectB];
    const b = await agent("agent-b", () => rootsB);
    // server-filesystem asks for roots once initialized, in the background (so with a direct connection too).
    await until(async () => (await allowed(b)).includes(projectB));
    expect(await read(b, join(projectB, "b.txt"))).toBe("B own");
    expect(await read(b, join(projectA, "a.txt"))).toMatch(/^denied: .*Access denied/);
    expect(await allowed(b)).not.toContain(projectA);
    // A is not moved into B's roots either.
    expect(await read(a, join(projectA, "a.txt"))).toBe("A private");
    expect(await read(a, join(projectB, "b.txt"))).toMatch(/^denied: .*Access denied/);

    rootsB = [projectB2];
    await b.sendRootsListChanged();
    await until(async () => (await allowed(b)).includes(projectB2));
    expect(await read(b, join(projectB2, "b2.txt"))).toBe("B moved on");
    expect(await read(b, join(projectB, "b.txt"))).toMatch(/^denied: .*Access denied/);
    expect(await allowed(a)).toContain(projectA);
    expect(await read(a, join(projectB2, "b2.txt"))).toMatch(/^denied: .*Access denied/);
  });
});
