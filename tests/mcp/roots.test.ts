/**
 * Roots through Spillway with a real upstream over stdio that asks for them: roots/list during a
 * call reaches the client that declared roots, and outside a call (after the client's
 * roots/list_changed, which Spillway forwards) the only connected client; a client that did not
 * declare roots is never asked, and the upstream gets a sentence.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { startTestEndpoint } from "./helpers/endpoint";
import { BIN, ROOT, httpClient, textOf, writeConfig } from "./helpers/setup";

const rootsUpstream = () => ({
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/rootsServer.ts")],
  cwd: ROOT,
});

describe("roots from an upstream", () => {
  it("over stdio: relayed to the client during a call and after its roots/list_changed, which reaches the upstream", async () => {
    const home = tempHome("spillway-roots-");
    writeConfig(home.path, { mcpServers: { rt: rootsUpstream() } });
    let roots = [{ uri: "file:///work/project-a", name: "a" }];
    const asked: number[] = [];
    const client = new Client({ name: "roots-client", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push(roots.length);
      return { roots };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--home", home.path],
        cwd: ROOT,
        env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "" },
        stderr: "pipe",
      }),
    );
    try {
      const during = textOf(await client.callTool({ name: "roots", arguments: {} }));
      expect(during).toBe(`roots: ${JSON.stringify(roots)}`);
      roots = [...roots, { uri: "file:///work/project-b", name: "b" }];
      await client.sendRootsListChanged();
      const after = textOf(await client.callTool({ name: "roots_after_change", arguments: { n: 1 } }));
      expect(after).toBe(`roots: ${JSON.stringify(roots)}`);
      expect(asked).toEqual([1, 2]);
    } finally {
      await client.close();
      home.cleanup();
    }
  });

  it("over HTTP: a client that did not declare roots is not asked; the upstream is told why", async () => {
    const t = await startTestEndpoint({ mcpServers: { rt: rootsUpstream() } });
    const { client } = await httpClient(t.ep.mcpUrl, t.token, "no-roots");
    try {
      const r = textOf(await client.callTool({ name: "roots", arguments: {} }));
      expect(r).toMatch(/^refused: .*did not declare roots, so rt cannot ask it for roots\/list/);
    } finally {
      await client.close();
      await t.close();
    }
  });
});
