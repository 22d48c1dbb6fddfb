/**
 * The upstreams' instructions reach the client behind Spillway, as they would connected directly:
 * `spillway mcp` (over real stdio, a real SDK client) and `spillway serve` (a real process over
 * Streamable HTTP) in front of the real server-everything and a fixture server whose instructions
 * hold a secret. Initialize is answered before the upstreams start, so a first start in a fresh
 * home carries Spillway's own instructions alone; the next start carries each server's under its
 * name, the secret masked, and nothing under the home holds it in clear.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SERVER_INSTRUCTIONS } from "../../core/mcp/serverIdentity";
import { smallSecrets } from "../fixtures/secrets/smallSecrets";
import { tempHome } from "../helpers/tempHome";
import { BIN, ROOT, httpClient, upstream, writeConfig } from "./helpers/setup";

const { values } = smallSecrets(53);
const SECRET = values.find((v) => v.startsWith("sk-proj-"))!;
const GUIDE = `Call guide_ping before any other tool.\nThe staging deploy reads OPENAI_API_KEY=${SECRET}; never print it.`;
/** The secret stays in the environment: the config keeps a placeholder (config/expand.ts). */
const ENV = { SPILLWAY_TEST_GUIDE: GUIDE };
const CONFIG = {
  mcpServers: {
    everything: upstream.everything(),
    guide: {
      command: process.execPath,
      args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/guideServer.ts")],
      cwd: ROOT,
      env: { GUIDE_TEXT: "${SPILLWAY_TEST_GUIDE}" },
    },
  },
};
const EVERYTHING = readFileSync(join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/docs/instructions.md"), "utf8");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The files under `home` that hold the secret (as UTF-8 or UTF-16). */
const inClear = (home: string) =>
  filesUnder(home).filter((f) => {
    const bytes = readFileSync(f);
    return bytes.includes(Buffer.from(SECRET, "utf8")) || bytes.includes(Buffer.from(SECRET, "utf16le"));
  });

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a host would put in its model's system prompt, checked for each server's part. */
function expectUpstreamInstructions(text: string | undefined): void {
  expect(text!.startsWith(SERVER_INSTRUCTIONS)).toBe(true);
  const everything = text!.indexOf('## Instructions of the MCP server "everything"');
  const guide = text!.indexOf('## Instructions of the MCP server "guide"');
  expect(everything).toBeGreaterThan(SERVER_INSTRUCTIONS.length);
  expect(guide).toBeGreaterThan(everything);
  // server-everything's ~1.5 KB, whole: under the cap, so not cut.
  expect(text!.slice(everything, guide)).toContain(EVERYTHING.trim());
  expect(text!.slice(guide)).toContain("Call guide_ping before any other tool.");
  expect(text).toContain("OPENAI_API_KEY=[masked:");
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain("Spillway cut");
}

/** A real SDK client of `spillway mcp`, with its stderr kept. */
async function stdio(home: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "--home", home],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "", ...ENV },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "instructions-e2e", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** `spillway serve` on a free port; its MCP URL and token. */
async function serve(home: string): Promise<{ child: ChildProcess; url: string; token: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, "serve", "--home", home, "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, ...ENV },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const token = readFileSync(join(home, "token"), "utf8").trim();
  const stop = async () => {
    const exit = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exit;
  };
  return { child, url, token, stop };
}

describe("the upstreams' instructions, passed on after Spillway's", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome("spillway-instructions-")));
  afterEach(() => home.cleanup());

  it("over stdio: none at a fresh home's first start, then each server's under its name, masked, early answer or not", async () => {
    writeConfig(home.path, CONFIG);
    const first = await stdio(home.path);
    // Initialize is answered before the upstreams start: a server never seen has given nothing yet.
    expect(first.client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    const tools = (await first.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["guide_ping", "echo"]));
    const kept = join(home.path, "tools-list.json");
    await until(
      "the answers kept for the next start",
      () => existsSync(kept) && readFileSync(kept, "utf8").includes('MCP server \\"guide\\"'),
    );
    await first.client.close();

    // Answered by the early reader, from what the first start kept.
    const second = await stdio(home.path);
    expectUpstreamInstructions(second.client.getInstructions());
    await second.client.listTools();
    await second.client.close();
    expect(second.stderr()).not.toMatch(/differs/);

    // Without the kept answers, the Server answers from the catalog in the index.
    rmSync(kept);
    const third = await stdio(home.path);
    expectUpstreamInstructions(third.client.getInstructions());
    expect(third.client.getInstructions()).toBe(second.client.getInstructions());
    await third.client.close();
    expect(inClear(home.path)).toEqual([]);
  }, 120_000);

  it("over spillway serve: each server's under its name in a session opened once they listed, and at the next start", async () => {
    writeConfig(home.path, CONFIG);
    const first = await serve(home.path);
    try {
      const a = await httpClient(first.url, first.token);
      // serve starts its upstreams at launch: this may or may not be before they answered.
      expect(a.client.getInstructions()!.startsWith(SERVER_INSTRUCTIONS)).toBe(true);
      expect((await a.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["guide_ping", "echo"]));
      const b = await httpClient(first.url, first.token);
      expectUpstreamInstructions(b.client.getInstructions());
      await a.client.close();
      await b.client.close();
    } finally {
      await first.stop();
    }
    const second = await serve(home.path);
    try {
      const c = await httpClient(second.url, second.token);
      expectUpstreamInstructions(c.client.getInstructions());
      await c.client.close();
    } finally {
      await second.stop();
    }
    expect(inClear(home.path)).toEqual([]);
  }, 120_000);
});
