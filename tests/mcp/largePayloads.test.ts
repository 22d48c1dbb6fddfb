/**
 * Results far over the SDK's 10 MB stdio limit, through `spillway mcp` from a real stdio upstream:
 * delivered as a handle and read back byte-exact; past 64 MB a clear error and the next call works;
 * an oversized request line gets an error and the process keeps serving.
 */
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { LineStdioClientTransport } from "../../core/mcp/stdioClientTransport";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { bigLog } from "./fixtures/bigPayload";
import { rawStdio } from "./helpers/rawStdio";
import { BIN, ROOT, bigUpstream, idIn, textOf, writeConfig } from "./helpers/setup";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("spillway mcp with results of tens of MB from a stdio upstream", () => {
  const home = tempHome("spillway-large-");
  let client: Client;

  beforeAll(async () => {
    writeConfig(home.path, { mcpServers: { big: bigUpstream() } });
    client = new Client({ name: "large", version: "1" });
    // This client reads up to 64 MB too, so a whole 30 MB blob can come back over stdio.
    await client.connect(new LineStdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--home", home.path], cwd: ROOT, stderr: "ignore" }));
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
  });

  const huge = (mb: number, seed = "a") => client.callTool({ name: "huge", arguments: { mb, seed } }, undefined, { timeout: 300_000 }) as Promise<CallToolResult>;

  it("rescues a 30 MB result and gives it back byte-exact, to the session and to the operator", async () => {
    const expected = sha(bigLog(30, "t"));
    const r = await huge(30, "t");
    expect(r.isError).toBeFalsy();
    const handle = textOf(r);
    expect(handle).toMatch(/PREVIEW, NOT the full output/);
    expect(handle).toContain("31,457,");
    const id = idIn(handle);

    const read = await client.readResource({ uri: `spillway://blob/${id}` }, { timeout: 300_000 });
    expect(sha((read.contents[0] as { text: string }).text)).toBe(expected);

    const operator = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    try {
      const whole = operator.readBlob(null, id);
      expect(whole.ok).toBe(true);
      if (whole.ok) expect(sha(whole.text)).toBe(expected);
    } finally {
      await operator.close();
    }
  });

  it("answers a result over 64 MB with an error naming the limit, and the next call works", async () => {
    const r = await huge(70, "x");
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/huge is 7\d\.\d MB, over the 64\.0 MB limit/);
    const next = await huge(1, "y");
    expect(next.isError).toBeFalsy();
    expect(textOf(next)).toMatch(/PREVIEW/);
  });
});

describe("spillway mcp with a request line over 64 MB", () => {
  const home = tempHome("spillway-bigline-");
  beforeAll(() => writeConfig(home.path, { mcpServers: { big: bigUpstream() } }));
  afterAll(() => home.cleanup());

  it("answers it with a JSON-RPC error naming the limit and keeps serving", async () => {
    const raw = rawStdio(home.path);
    await raw.initialize();
    const huge = "z".repeat(65 * 1024 * 1024);
    raw.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"ping_tool","arguments":{"pad":"${huge}"}},"id":7}\n`);
    const err = await raw.next();
    expect(err.id).toBe(7);
    expect(err.error?.code).toBe(-32600);
    expect(err.error?.message).toMatch(/65\.0 MB, over the 64\.0 MB limit/);
    const ok = await raw.request(8, "tools/call", { name: "ping_tool", arguments: {} });
    expect(ok.result?.content?.[0]?.text).toBe("pong");
    expect(raw.child.exitCode).toBeNull();
    expect(await raw.close()).toBe(0);
  });
});
