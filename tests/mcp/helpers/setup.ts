/** Shared setup for the MCP end-to-end tests: temp homes with a config, upstream commands, clients. */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";

const require = createRequire(import.meta.url);
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(ROOT, "bin/spillway.js");
const FIXTURE = join(ROOT, "tests/mcp/fixtures/fixtureServer.ts");

/** The dist entry of an npm MCP server (its package's bin). */
function serverEntry(pkg: string): string {
  const main = require.resolve(`${pkg}/package.json`);
  return join(dirname(main), "dist/index.js");
}

export const upstream = {
  fixture: () => ({ command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT }),
  filesystem: (dir: string) => ({ command: process.execPath, args: [serverEntry("@modelcontextprotocol/server-filesystem"), dir] }),
  memory: (file: string) => ({
    command: process.execPath,
    args: [serverEntry("@modelcontextprotocol/server-memory")],
    env: { MEMORY_FILE_PATH: file },
  }),
  everything: () => ({ command: process.execPath, args: [serverEntry("@modelcontextprotocol/server-everything"), "stdio"] }),
  /** A server that echoes SIDE_TOKEN on MCP's side channels (fixtures/sideChannelServer.ts). */
  sideChannel: (token: string) => ({
    command: process.execPath,
    args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/sideChannelServer.ts")],
    cwd: ROOT,
    env: { SIDE_TOKEN: token },
  }),
};

/**
 * A first-ever tools/list waits for upstreams only up to `server.firstListWaitMs` (5 s), then the
 * rest arrive by list_changed. Tests about what the proxy does with upstream tools, not about
 * startup, wait longer: a loaded 2-core CI machine can take more than 5 s to start four servers.
 * Startup tests set the key themselves.
 */
export function patientStart(config: Record<string, unknown>): Record<string, unknown> {
  const server = (config.server ?? {}) as Record<string, unknown>;
  return { ...config, server: { firstListWaitMs: 60_000, ...server } };
}

export function writeConfig(home: string, config: Record<string, unknown>): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, "config.json"), JSON.stringify(patientStart(config), null, 2));
}

/** A client of `spillway mcp` over real stdio. */
export async function stdioClient(home: string, env: Record<string, string> = {}, capabilities: ClientCapabilities = {}): Promise<Client> {
  const client = new Client({ name: "e2e-stdio", version: "1.0.0" }, { capabilities });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "--home", home],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "", ...env },
    stderr: "pipe",
  });
  await client.connect(transport);
  return client;
}

/** A client of the Streamable HTTP endpoint. */
export async function httpClient(
  url: string,
  token: string,
  name = "e2e-http",
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport };
}

export function textOf(r: unknown): string {
  const res = r as CallToolResult;
  return res.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

/** The blob id named in a handle or stub. */
export function idIn(text: string): string {
  const m = /\b([0-9a-f]{12})\b/.exec(text);
  if (!m) throw new Error(`no blob id in: ${text.slice(0, 300)}`);
  return m[1]!;
}

/** An upstream whose `huge` tool returns `mb` MiB of text (tests/mcp/fixtures/bigServer.ts). */
export const bigUpstream = () => ({
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "tests/mcp/fixtures/bigServer.ts")],
  cwd: ROOT,
});
