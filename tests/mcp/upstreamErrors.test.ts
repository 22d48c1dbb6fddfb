/**
 * What the agent is told when an upstream answers with an error of its own or with something that
 * is not an MCP result: the server's words, not a crash or a timeout that did not happen.
 */
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { ROOT, stdioClient, textOf, writeConfig } from "./helpers/setup";

const ERROR_SERVER = join(ROOT, "tests/mcp/fixtures/errorServer.ts");

describe("an upstream's own errors through spillway mcp", () => {
  const home = tempHome("spillway-upstream-errors-");
  let client: Client;

  beforeAll(async () => {
    writeConfig(home.path, {
      mcpServers: { strict: { command: process.execPath, args: ["--import", "tsx", ERROR_SERVER], cwd: ROOT } },
      server: { upstreamTimeoutMs: 20_000 },
    });
    client = await stdioClient(home.path);
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { error: r.isError === true, text: textOf(r) };
  };

  it.each([
    [-32000, "db connect failed: too many clients"],
    [-32001, "upstream quota: rate limited"],
    [-32603, "internal: index corrupt"],
  ])("passes on the server's error %i with its message, and the server keeps running", async (code, message) => {
    const started = Date.now();
    const r = await call("fail", { code, message });
    expect(r.error).toBe(true);
    expect(r.text).toContain(message);
    expect(r.text).not.toMatch(/stopped while running|did not answer|restarts it/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Not treated as a crash: the next call reaches the same server at once.
    expect((await call("fail", { code: -32602, message: "still here" })).text).toContain("still here");
  });

  it("says the answer was not an MCP result, and where, instead of an unreadable fragment", async () => {
    const r = await call("malformed");
    expect(r.error).toBe(true);
    expect(r.text).toMatch(/answered malformed with something that is not an MCP result \(content: /);
    expect(r.text).not.toMatch(/refused malformed: \[/);
  });
});
