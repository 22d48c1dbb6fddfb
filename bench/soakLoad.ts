/**
 * The load side of the soak bench, in its own process so the server's memory is measured alone:
 * `soakLoad.ts <url> <token> <sessions> [logLines]`; each stdin line `round N CALLS ABANDON FRESH`
 * runs one round over the sessions and prints `done N`; `abandon N` opens and leaves N sessions.
 */
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, sessionsArg, linesArg] = process.argv.slice(2) as [string, string, string, string?];
const logLines = Number(linesArg ?? 400);
const sessions = Number(sessionsArg);

async function connect(): Promise<{ c: Client; t: StreamableHTTPClientTransport }> {
  const c = new Client({ name: "soak", version: "1" });
  const t = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await c.connect(t);
  return { c, t };
}

/** One session's share of a round: mostly small calls, some rescues and their repeats (stubs), fetches. */
async function work(c: Client, calls: number, round: number, k: number): Promise<void> {
  let lastId: string | null = null;
  for (let i = 0; i < calls; i++) {
    const slot = i % 10;
    if (slot < 6) {
      await c.callTool({ name: "digest", arguments: { text: `round ${round} session ${k} call ${i} `.repeat(20) } });
    } else if (slot < 8) {
      const r = (await c.callTool({ name: "big_log", arguments: { lines: logLines, seed: `r${round}s${k}c${i - (i % 20)}` } })) as {
        content: { text?: string }[];
      };
      const m = /\b([0-9a-f]{12})\b/.exec(r.content[0]?.text ?? "");
      if (m) lastId = m[1]!;
    } else if (lastId) {
      await c.callTool({
        name: "rescuer_fetch",
        arguments: { id: lastId, mode: slot === 8 ? "grep" : "range", pattern: "ERROR", start: 10, count: 20 },
      });
    } else {
      await c.callTool({ name: "digest", arguments: { text: "x" } });
    }
  }
}

/** A session that initializes, makes one call and goes away without DELETE (as most clients leave). */
async function abandonOne(): Promise<void> {
  const { c } = await connect();
  await c.callTool({ name: "digest", arguments: { text: "abandoned" } });
  await c.close();
}

let clients = await Promise.all(Array.from({ length: sessions }, connect));
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, n, calls, abandon, fresh] = line.trim().split(/\s+/);
  if (cmd === "abandon") {
    for (let i = 0; i < Number(n); i++) await abandonOne();
    process.stdout.write(`abandoned ${n}\n`);
    continue;
  }
  if (cmd !== "round") continue;
  const round = Number(n);
  if (fresh === "1" && round > 1) {
    await Promise.all(clients.map(async ({ c, t }) => (await t.terminateSession(), await c.close())));
    clients = await Promise.all(Array.from({ length: sessions }, connect));
  }
  await Promise.all(clients.map(({ c }, k) => work(c, Math.ceil(Number(calls) / sessions), round, k)));
  for (let i = 0; i < Number(abandon); i++) await abandonOne();
  process.stdout.write(`done ${round}\n`);
}
await Promise.all(clients.map(({ c }) => c.close()));
