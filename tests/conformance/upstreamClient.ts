/**
 * The client the conformance suite's client scenarios run (`conformance client --command …`): the
 * suite starts its test server and appends the server's URL to the command. Spillway is the MCP
 * client under test here, as it is to every upstream: this puts the URL in a fresh Spillway home as
 * an upstream (an entry with a URL and no type, as Cursor and Gemini CLI write it), starts one real
 * `spillway mcp` over stdio, and, as an agent would, lists the tools and calls each one the server
 * offers through it, with arguments made from each tool's input schema. Elicitation requests the
 * server sends through the proxy are accepted with the defaults the schema gives (as an agent's UI
 * would fill its form); the suite checks what reaches the server.
 *
 * Run with `node --import tsx tests/conformance/upstreamClient.ts <server-url>`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { OWN_TOOLS } from "../../core/engine/transform";
import { BIN, ROOT, writeConfig } from "../mcp/helpers/setup";

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; default?: unknown; enum?: unknown[] };

/** A value of the schema's type: the default when it gives one. */
function sample(s: Schema): unknown {
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case "number":
    case "integer":
      return 2;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return argumentsFor(s);
    default:
      return "conformance";
  }
}

/** Every required property, and every optional one with a default. */
function argumentsFor(s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (s.required?.includes(name) || prop.default !== undefined) out[name] = sample(prop);
  }
  return out;
}

const url = process.argv.at(-1)!;
const home = mkdtempSync(join(tmpdir(), "spillway-conformance-client-"));
writeConfig(home, { mcpServers: { suite: { url } } });
const client = new Client({ name: "conformance-agent", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const schema = (req.params as { requestedSchema?: Schema }).requestedSchema ?? {};
  const content: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) if (prop.default !== undefined) content[name] = prop.default;
  return { action: "accept", content } as never;
});
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [BIN, "mcp", "--home", home],
  cwd: ROOT,
  env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "" },
  stderr: "inherit",
});
let code = 0;
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  for (const tool of tools.filter((t) => !OWN_TOOLS.has(t.name))) {
    const r = await client.callTool({ name: tool.name, arguments: argumentsFor(tool.inputSchema as Schema) }, undefined, {
      timeout: 20_000,
    });
    process.stderr.write(`${tool.name}: ${JSON.stringify(r).slice(0, 300)}\n`);
  }
} catch (err) {
  process.stderr.write(`conformance client: ${String(err)}\n`);
  code = 1;
} finally {
  await client.close().catch(() => {});
  rmSync(home, { recursive: true, force: true });
}
process.exit(code);
