/**
 * Nothing credential-shaped in clear anywhere under the home. Real traffic carrying secrets goes
 * through the engine in process and through `spillway mcp` over stdio in front of a real upstream
 * (results, arguments, fetch patterns, stubs, recalls, resources, structured output, an upstream
 * that dies printing a secret); the process's log goes to a file in the home. Then every file
 * under the home (SQLite index, WAL, blob files, the log) is searched for every planted value.
 */
import { createWriteStream, readdirSync, readFileSync, statSync, type WriteStream } from "node:fs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { smallSecrets } from "../fixtures/secrets/smallSecrets";
import { rng } from "../fixtures/seededRandom";
import { buildLeakFixture } from "../fixtures/secrets/leakFixture";
import { tempHome } from "../helpers/tempHome";
import { BIN, ROOT, idIn, textOf, writeConfig } from "./helpers/setup";

const SECRET_SERVER = join(ROOT, "tests/mcp/fixtures/secretServer.ts");

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** For each file under the home, the planted values found in it (as UTF-8 or UTF-16 bytes). */
function plaintextHits(home: string, values: string[]): string[] {
  const hits: string[] = [];
  for (const file of filesUnder(home)) {
    const bytes = readFileSync(file);
    for (const v of values) {
      if (bytes.includes(Buffer.from(v, "utf8")) || bytes.includes(Buffer.from(v, "utf16le")))
        hits.push(`${file.slice(home.length)}: ${v.slice(0, 12)}…`);
    }
  }
  return hits;
}

describe("no secret in clear under the home", () => {
  const home = tempHome("spillway-at-rest-");
  const small = smallSecrets(41);
  const leak = buildLeakFixture(43);
  // Values with no shape of a secret, secret only by the key that names them in a call's arguments.
  const rnd = rng(47);
  const named = Array.from({ length: 3 }, () =>
    Array.from({ length: 20 }, () => "ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789"[Math.floor(rnd() * 53)]).join(""),
  );
  const values = [...new Set([...small.values, ...leak.planted.map((p) => p.value), ...named])];
  const seen = (text: string) => values.filter((v) => text.includes(v));
  /** A grep answer names its pattern: the model's own words come back, nothing more. */
  const seenBeyond = (text: string, own: string) => seen(text).filter((v) => v !== own);
  let client: Client;
  let log: WriteStream;

  beforeAll(async () => {
    writeConfig(home.path, { mcpServers: { sx: { command: process.execPath, args: ["--import", "tsx", SECRET_SERVER], cwd: ROOT } } });
    mkdirSync(join(home.path, "logs"));
    log = createWriteStream(join(home.path, "logs", "spillway-mcp.log"));
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
  });

  it("through the engine: pass-through, rescue, stub, fetches with secret patterns, recall, expansion", async () => {
    const e = createEngine({ home: home.path, config: parseConfig({}), logger: memoryLogger() });
    const s = "engine-session";
    const big = leak.text + "ordinary line\n".repeat(800);
    const answers: string[] = [];
    answers.push(e.transformToolResult({ sessionId: s, tool: "shell", args: { cmd: small.lines[5] }, text: small.lines.join("\n") }).text);
    const r = e.transformToolResult({ sessionId: s, tool: "cat", args: { path: ".env", password: small.values[9] }, text: big });
    answers.push(
      r.text,
      e.transformToolResult({ sessionId: s, tool: "cat", args: { path: ".env", password: small.values[9] }, text: big }).text,
    );
    const mid = small.lines.join("\n") + "\n" + "x".repeat(3_000);
    answers.push(
      e.transformToolResult({ sessionId: s, tool: "read", text: mid }).text,
      e.transformToolResult({ sessionId: s, tool: "read", text: mid }).text,
    );
    for (const v of values.slice(0, 8))
      expect(seenBeyond(e.fetch({ sessionId: s, id: r.blobId, mode: "grep", args: { pattern: v } }).text, v)).toEqual([]);
    answers.push(e.fetch({ sessionId: s, id: r.blobId, mode: "search", args: { query: `token ${small.values[0]}` } }).text);
    answers.push(e.fetch({ sessionId: s, id: r.blobId, mode: "range", args: { start: 0, count: 60 } }).text);
    answers.push(e.recall(s, r.blobId).text, JSON.stringify(e.readBlob(s, r.blobId)));
    answers.push(
      JSON.stringify(
        e.expandArguments({ sessionId: s, tool: "summarize", args: { text: `spill:${r.blobId}`, key: small.values[2] } }).note,
      ),
    );
    await e.idle();
    expect(answers.flatMap(seen)).toEqual([]);
    expect(plaintextHits(home.path, values)).toEqual([]); // WAL still open here
    await e.close();
    expect(plaintextHits(home.path, values)).toEqual([]);
  });

  it("through spillway mcp in front of a real upstream, its log in the home", async () => {
    client = new Client({ name: "at-rest", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--home", home.path],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), SPILLWAY_SESSION_ID: "", CLAUDE_CODE_SESSION_ID: "" },
      stderr: "pipe",
    });
    transport.stderr?.pipe(log);
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const answers: string[] = [];
    const shown = await call("show", { text: small.lines.join("\n") });
    // Arguments whose keys name them secrets: masked in the call's row and in its JSON-RPC record alike.
    answers.push(
      JSON.stringify(await call("show", { text: "hello", password: named[0], api_key: named[1], Authorization: `Bearer ${named[2]}` })),
    );
    expect(textOf(shown)).toContain("[masked:");
    answers.push(JSON.stringify(shown));
    const dump = await call("env_dump", { lines: [leak.text], filler: 600 });
    const id = idIn(textOf(dump));
    answers.push(JSON.stringify(dump), JSON.stringify(await call("env_dump", { lines: [leak.text], filler: 600 })));
    for (const v of values.slice(0, 6))
      expect(seenBeyond(textOf(await call("rescuer_fetch", { id, mode: "grep", pattern: v })), v)).toEqual([]);
    answers.push(textOf(await call("rescuer_fetch", { id, mode: "chain", pattern: "KEY|TOKEN|PASSWORD", context: 2 })));
    answers.push(textOf(await call("recall_result", { result_id: id })));
    answers.push(JSON.stringify(await client.readResource({ uri: `spillway://blob/${id}` })));
    answers.push(JSON.stringify(await call("structured", { text: small.lines.slice(0, 6).join("\n") })));
    answers.push(JSON.stringify(await call("leak_and_die", { text: `could not connect to postgres://app:${small.values[5]}@db/app` })));
    expect(answers.flatMap(seen)).toEqual([]);
    expect(plaintextHits(home.path, values)).toEqual([]); // the process is still running: WAL and all
    await client.close();
    await new Promise<void>((resolve) => log.end(resolve));
    const files = filesUnder(home.path).map((f) => f.slice(home.path.length + 1));
    expect(files).toEqual(expect.arrayContaining(["index.sqlite", "logs/spillway-mcp.log"]));
    expect(files.filter((f) => f.startsWith("blobs/")).length).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(home.path, "logs", "spillway-mcp.log"), "utf8")).toMatch(/upstream lost/);
    expect(plaintextHits(home.path, values)).toEqual([]);
  });
});
