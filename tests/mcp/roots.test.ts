/**
 * Roots through Spillway with a real upstream over stdio that asks for them: roots/list during a
 * call reaches the client that declared roots, and outside a call (after the client's
 * roots/list_changed, which Spillway forwards) the only connected client; a client that did not
 * declare roots is never asked, and the upstream gets a sentence.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { startTestEndpoint } from "./helpers/endpoint";
import { BIN, ROOT, httpClient, textOf, writeConfig } from "./helpers/setup";

const rootsUpstream = (answers?: string) => ({
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/rootsServer.ts")],
  cwd: ROOT,
  ...(answers ? { env: { ROOTS_ANSWERS: answers } } : {}),
});

/** The upstream's answers to roots/list_changed, once there are `n`: read from its file, so no call of the test's is in flight meanwhile. */
async function answersAfterChange(file: string, n: number): Promise<string[]> {
  for (;;) {
    const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
    if (lines.length >= n) return lines.map((l) => JSON.parse(l) as string);
    await new Promise((r) => setTimeout(r, 20));
  }
}

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

  it("over HTTP: the calling client's roots during a call; outside a call with two sessions open, none; an undeclared client is never asked", async () => {
    const tempDir = tempHome("spillway-roots-answers-");
    const answers = join(tempDir.path, "answers.ndjson");
    const t = await startTestEndpoint({ mcpServers: { rt: rootsUpstream(answers) } });
    const roots = [{ uri: "file:///work/http-project", name: "http" }];
    const a = new Client({ name: "roots-http", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
    let askedA = 0;
    a.setRequestHandler(ListRootsRequestSchema, async () => {
      askedA++;
      return { roots };
    });
    await a.connect(
      new StreamableHTTPClientTransport(new URL(t.ep.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${t.token}` } } }),
    );
    const { client: b } = await httpClient(t.ep.mcpUrl, t.token, "no-roots");
    try {
      expect(textOf(await a.callTool({ name: "roots", arguments: {} }))).toBe(`roots: ${JSON.stringify(roots)}`);
      const refused = textOf(await b.callTool({ name: "roots", arguments: {} }));
      expect(refused).toMatch(/^refused: .*did not declare roots, so rt cannot ask it for roots\/list/);
      await a.sendRootsListChanged();
      const [after] = await answersAfterChange(answers, 1);
      expect(after).toMatch(/^refused: .*cannot relay roots\/list from rt outside a tool call: 2 clients are connected/);
      expect(askedA).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await t.close();
      tempDir.cleanup();
    }
  });
});
