/**
 * The four ways an agent can reach the same MCP servers in the economy bench: directly (no
 * interception), or through Spillway's proxy (in-process, over an in-memory MCP transport, in
 * front of the real upstream server processes, one client as with `spillway mcp`) configured as exact dedup only, full Spillway,
 * or Spillway without near-duplicate stubs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { createProxyServer } from "../../core/mcp/proxyServer";
import { createUpstreamManager } from "../../core/mcp/upstreamManager";
import { memoryLogger } from "../../core/runtime";

export const MODES = ["none", "exact", "spillway", "spillway-no-near"] as const;
export type Mode = (typeof MODES)[number];

export const MODE_LABEL: Record<Mode, string> = {
  none: "no interception",
  exact: "exact dedup only",
  spillway: "Spillway",
  "spillway-no-near": "Spillway, no near-dup",
};

/** A stdio MCP server as the sessions start it (the mcpServers shape). */
export interface ServerSpec {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** An agent's view of its MCP servers: the tools it is given, instructions, and calls. */
export interface Connection {
  tools: Tool[];
  /** Server instructions a host adds to the prompt. */
  instructions: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Never matches a tool name: with it as the only included tool, nothing is rescued. */
const NO_TOOL = "spillway-bench-rescues-nothing";

const MODE_CONFIG: Record<Exclude<Mode, "none">, Record<string, unknown>> = {
  exact: { rescue: { includeTools: [NO_TOOL] }, dedup: { nearDuplicates: false, echoStubs: false } },
  spillway: {},
  "spillway-no-near": { dedup: { nearDuplicates: false } },
};

async function direct(servers: Record<string, ServerSpec>): Promise<Connection> {
  const clients: Client[] = [];
  const route = new Map<string, Client>();
  const tools: Tool[] = [];
  const instructions: string[] = [];
  for (const cfg of Object.values(servers)) {
    const c = new Client({ name: "economy-bench", version: "1" });
    await c.connect(
      new StdioClientTransport({
        command: cfg.command,
        args: cfg.args ?? [],
        env: { ...(process.env as Record<string, string>), ...cfg.env },
        cwd: cfg.cwd,
        stderr: "ignore",
      }),
    );
    clients.push(c);
    const inst = c.getInstructions();
    if (inst) instructions.push(inst);
    for (const t of (await c.listTools()).tools) {
      if (route.has(t.name)) throw new Error(`two servers offer ${t.name}`);
      route.set(t.name, c);
      tools.push(t);
    }
  }
  return {
    tools,
    instructions,
    call: (name, args) => route.get(name)!.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}

async function proxied(mode: Exclude<Mode, "none">, servers: Record<string, ServerSpec>): Promise<Connection> {
  const home = mkdtempSync(join(tmpdir(), "spillway-economy-"));
  // A fresh home has no cached tool catalog: let the first tools/list wait for every upstream,
  // so each mode is given the whole tool list however slowly a server starts on a busy machine.
  const config = parseConfig({ ...MODE_CONFIG[mode], server: { firstListWaitMs: 120_000 }, mcpServers: servers });
  const engine = createEngine({ home, config, logger: memoryLogger() });
  // One agent, one client: the upstreams are managed as `spillway mcp` manages them.
  const upstreams = createUpstreamManager(engine.config, engine.logger, () => engine.toolCatalog, true);
  const server = createProxyServer({ engine, upstreams, sessionId: "economy" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "economy-bench", version: "1" });
  await client.connect(a);
  const tools = (await client.listTools()).tools;
  // Spillway's initialize carries its upstreams' instructions after its own, from the catalog: this
  // first start in a fresh home had none yet (client.getInstructions() is Spillway's alone), every
  // later start of an agent has them. The servers have listed by now: this is what the next
  // initialize answers (proxyServer.ts gets the same string from UpstreamManager.instructions()).
  const inst = await upstreams.instructions();
  return {
    // Exact dedup alone (toolrecall-light's behaviour) adds only recall_result and no instructions.
    tools: mode === "exact" ? tools.filter((t) => t.name !== "rescuer_fetch") : tools,
    instructions: mode === "exact" ? [] : [inst],
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>,
    async close() {
      await client.close();
      await upstreams.close();
      await engine.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Connects an agent to `servers` the way `mode` says. */
export function connect(mode: Mode, servers: Record<string, ServerSpec>): Promise<Connection> {
  return mode === "none" ? direct(servers) : proxied(mode, servers);
}
