/**
 * Results far over the SDK's 10 MB stdio limit, through `spillway mcp` from a real stdio upstream
 * and a Streamable HTTP one: delivered as a handle and read back byte-exact; past 64 MB a clear
 * error and the next call works; an oversized request line gets an error and the process keeps serving.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { LineStdioClientTransport } from "../../core/mcp/stdioClientTransport";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { bigLog } from "./fixtures/bigPayload";
import { startTestEndpoint, type TestEndpoint } from "./helpers/endpoint";
import { rawStdio } from "./helpers/rawStdio";
import { BIN, ROOT, bigUpstream, httpClient, idIn, textOf, writeConfig } from "./helpers/setup";

async function operatorSha(home: string, id: string): Promise<string | null> {
  const operator = createEngine({ home, config: parseConfig({}), logger: memoryLogger() });
  try {
    const whole = operator.readBlob(null, id);
    return whole.ok ? sha(whole.text) : null;
  } finally {
    await operator.close();
  }
}

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("spillway mcp with results of tens of MB from a stdio upstream", () => {
  const home = tempHome("spillway-large-");
  let client: Client;

  beforeAll(async () => {
    writeConfig(home.path, { mcpServers: { big: bigUpstream() } });
    client = new Client({ name: "large", version: "1" });
    // This client reads up to 64 MB too, so a whole 30 MB blob can come back over stdio.
    await client.connect(
      new LineStdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--home", home.path], cwd: ROOT, stderr: "ignore" }),
    );
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
  });

  const huge = (mb: number, seed = "a") =>
    client.callTool({ name: "huge", arguments: { mb, seed } }, undefined, { timeout: 300_000 }) as Promise<CallToolResult>;

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

    expect(await operatorSha(home.path, id)).toBe(expected);
  });

  it("answers a result over 64 MB with an error naming the limit, and the next call works", async () => {
    const r = await huge(70, "x");
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /^Spillway could not read the answer of the upstream server \w+: its answer to huge is 7\d\.\d MB, over the 64\.0 MB limit Spillway reads/,
    );
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

describe.each([
  { transport: "Streamable HTTP", flag: "--http", entry: (url: string) => ({ type: "http", url }) },
  // Answers come on one GET stream here: the limit still names the call it answered.
  { transport: "HTTP+SSE", flag: "--sse", entry: (url: string) => ({ type: "sse", url }) },
])("spillway mcp with results of tens of MB from a $transport upstream", ({ flag, entry }) => {
  const home = tempHome("spillway-large-http-");
  let server: ChildProcess;
  let client: Client;

  beforeAll(async () => {
    server = spawn(process.execPath, ["--import", "tsx", `${ROOT}/tests/mcp/fixtures/bigServer.ts`, flag], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const url = await new Promise<string>((resolve) =>
      server.stdout!.on("data", (d) => /listening (\S+)/.test(String(d)) && resolve(/listening (\S+)/.exec(String(d))![1]!)),
    );
    writeConfig(home.path, { mcpServers: { bighttp: entry(url) } });
    client = new Client({ name: "large-http", version: "1" });
    await client.connect(
      new LineStdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--home", home.path], cwd: ROOT, stderr: "ignore" }),
    );
  });
  afterAll(async () => {
    await client?.close();
    server?.kill();
    home.cleanup();
  });

  const huge = (mb: number, seed: string) =>
    client.callTool({ name: "huge", arguments: { mb, seed } }, undefined, { timeout: 300_000 }) as Promise<CallToolResult>;

  it("rescues a 30 MB result byte-exact, answers one over 64 MB with the limit, and the next call works", async () => {
    const r = await huge(30, "h");
    expect(textOf(r)).toMatch(/PREVIEW, NOT the full output/);
    expect(await operatorSha(home.path, idIn(textOf(r)))).toBe(sha(bigLog(30, "h")));
    const over = await huge(70, "o");
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/huge is 7\d\.\d MB, over the 64\.0 MB limit/);
    expect((await huge(1, "n")).isError).toBeFalsy();
  });
});

describe("spillway serve handing tens of MB to an HTTP client", () => {
  let t: TestEndpoint;
  let client: Client;
  beforeAll(async () => {
    // huge is excluded from rescue here, so its result must reach the client whole
    t = await startTestEndpoint({ rescue: { excludeTools: ["huge"] }, mcpServers: { big: bigUpstream() } });
    ({ client } = await httpClient(t.ep.mcpUrl, t.token, "large-http-client"));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("delivers a 20 MB result of a tool excluded from rescue byte-exact", async () => {
    const r = (await client.callTool({ name: "huge", arguments: { mb: 20, seed: "raw" } }, undefined, {
      timeout: 300_000,
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(sha(textOf(r))).toBe(sha(bigLog(20, "raw")));
  });
});
