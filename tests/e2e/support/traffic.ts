/**
 * Real agent traffic through the MCP endpoint of a running `spillway serve`: two client
 * sessions reading files through the filesystem upstream (rescued, deduplicated), fetching
 * and recalling, and passing a blob by reference to the memory upstream.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { httpClient, idIn, ROOT, textOf, upstream } from "../../mcp/helpers/setup";

/** The line (0-based) of the needle in the generated 2 MB build log. */
export const NEEDLE_LINE = 31_337;
export const NEEDLE = "FATAL: disk quota exceeded on /var/cache/builder";

export const SECRET_FILE =
  "# deploy settings for the staging cluster\n" +
  Array.from({ length: 260 }, (_, i) => `SETTING_${i}=value-${(i * 7919) % 10007}-${"k".repeat(30)}`).join("\n") +
  "\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEYq3\nGITHUB_TOKEN=ghp_8fK2mQ9xLp4RtY7wZ3vB6nC1dS5hJ0aEuXoG\n";

function bigLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    out.push(
      i === NEEDLE_LINE
        ? NEEDLE
        : `[${String(i).padStart(6, "0")}] builder: compiled packages/app/src/module_${i % 913}.ts (${(i * 37) % 1000} ms)`,
    );
  }
  return out.join("\n") + "\n";
}

/** The folder the filesystem upstream serves, with realistic tool results. */
export function writeFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const fx = join(ROOT, "tests/fixtures");
  for (const f of readdirSync(join(fx, "fetch"))) copyFileSync(join(fx, "fetch", f), join(dir, f));
  copyFileSync(join(fx, "csv/transactions.csv"), join(dir, "transactions-2026.csv"));
  copyFileSync(join(fx, "html/page.html"), join(dir, "page.html"));
  writeFileSync(join(dir, "build-2mb.log"), bigLog());
  writeFileSync(join(dir, "deploy.env"), SECRET_FILE);
}

export function upstreamConfig(dir: string, memoryFile: string): Record<string, unknown> {
  return { mcpServers: { files: upstream.filesystem(dir), memory: upstream.memory(memoryFile), fx: upstream.fixture() } };
}

export interface TrafficIds {
  batchLog: string;
  orders: string;
  csv: string;
  bigLog: string;
  secret: string;
  events: string;
  html: string;
  /** The MCP session ids of the two agents. */
  alpha: string;
  beta: string;
}

export async function generateTraffic(url: string, token: string, dir: string): Promise<TrafficIds> {
  const a = await httpClient(`${url}/mcp`, token, "e2e-agent-alpha");
  const b = await httpClient(`${url}/mcp`, token, "e2e-agent-beta");
  const read = async (c: typeof a, file: string) =>
    textOf(await c.client.callTool({ name: "read_text_file", arguments: { path: join(dir, file) } }));
  const fetchMode = (c: typeof a, id: string, mode: string, args: Record<string, unknown> = {}) =>
    c.client.callTool({ name: "rescuer_fetch", arguments: { id, mode, ...args } });

  const batchLog = idIn(await read(a, "nightly-batch.log"));
  const orders = idIn(await read(a, "orders-page.json"));
  const csv = idIn(await read(a, "transactions-2026.csv"));
  const bigLogId = idIn(await read(a, "build-2mb.log"));
  const stub = await read(a, "nightly-batch.log");
  if (!stub.includes("recall_result")) throw new Error(`expected a stub, got: ${stub.slice(0, 200)}`);
  await fetchMode(a, batchLog, "grep", { pattern: "ERROR|FAIL" });
  await fetchMode(a, orders, "outline");
  await fetchMode(a, orders, "query", { expression: "length(orders)" });
  await fetchMode(a, bigLogId, "grep", { pattern: "FATAL" });
  await a.client.callTool({ name: "recall_result", arguments: { result_id: batchLog } });
  await a.client.callTool({ name: "list_directory", arguments: { path: dir } });
  // The upstream crashes mid-call; a chart comes back as an image; a structured result is one call.
  await a.client.callTool({ name: "crash", arguments: {} });
  await a.client.callTool({ name: "chart", arguments: {} });
  await a.client.callTool({ name: "structured", arguments: { count: 800 } });

  const html = idIn(await read(b, "page.html"));
  const events = idIn(await read(b, "events.ndjson"));
  const secret = idIn(await read(b, "deploy.env"));
  await read(b, "harbor-sync-README.md");
  await fetchMode(b, events, "search", { query: "payment failed", top_k: 3 });
  await fetchMode(b, html, "range", { start: 0, count: 20 });
  // Pass by reference: allowed into a read-only tool, denied into one that writes.
  await b.client.callTool({ name: "search_nodes", arguments: { query: `spill:${events}` } });
  await b.client.callTool({
    name: "create_entities",
    arguments: { entities: [{ name: "events", entityType: "log", observations: [`spill:${events}`] }] },
  });
  // Beta tries to read alpha's log: refused, and recorded.
  await fetchMode(b, batchLog, "stat");
  const alpha = a.transport.sessionId!;
  const beta = b.transport.sessionId!;

  await a.client.close();
  await b.client.close();
  return { batchLog, orders, csv, bigLog: bigLogId, secret, events, html, alpha, beta };
}
