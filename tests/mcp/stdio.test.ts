/**
 * `spillway mcp` over real stdio, in front of real upstreams: server-filesystem reading a multi-MB
 * file and the fixture server. What a user of an MCP client would see.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { idIn, stdioClient, textOf, upstream, writeConfig } from "./helpers/setup";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

function buildLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      i % 211 === 7
        ? `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z ERROR worker ${i % 8}: upload of chunk ${i} failed (timeout)`
        : `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO worker ${i % 8}: processed chunk ${i} in ${i % 97} ms`,
    );
  }
  return out.join("\n") + "\n";
}

describe("spillway mcp (stdio) in front of server-filesystem and a fixture server", () => {
  const home = tempHome("spillway-e2e-home-");
  const files = tempHome("spillway-e2e-files-");
  const logText = buildLog(60_000); // about 4.5 MB
  const records = Array.from({ length: 400 }, (_, i) => ({
    id: i,
    status: i % 9 === 0 ? "failed" : "ok",
    name: `job-${i}`,
    ms: (i * 13) % 500,
  }));
  const jsonText = JSON.stringify(records);
  let client: Client;
  let logId: string;
  let jsonId: string;

  beforeAll(async () => {
    writeFileSync(join(files.path, "build.log"), logText);
    writeFileSync(join(files.path, "jobs.json"), jsonText);
    writeConfig(home.path, { mcpServers: { fs: upstream.filesystem(files.path), fx: upstream.fixture() } });
    client = await stdioClient(home.path);
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
    files.cleanup();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const fetch = (args: Record<string, unknown>) => call("rescuer_fetch", args);

  it("lists its own tools with schemas and read-only hints, and the upstream tools without outputSchema or a default $schema", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["rescuer_fetch", "recall_result", "read_text_file", "digest", "crash"]));
    const fetchTool = tools.find((t) => t.name === "rescuer_fetch")!;
    expect(fetchTool.annotations?.readOnlyHint).toBe(true);
    expect((fetchTool.inputSchema.properties as Record<string, { enum?: string[] }>).mode!.enum).toEqual([
      "stat",
      "outline",
      "search",
      "grep",
      "chain",
      "range",
      "query",
      "full",
    ]);
    expect(fetchTool.description).toMatch(/preview/i);
    const read = tools.find((t) => t.name === "read_text_file")!;
    expect(read.outputSchema).toBeUndefined();
    // server-filesystem names draft-07, which reads the same as MCP's default 2020-12 here.
    expect(read.inputSchema).not.toHaveProperty("$schema");
    expect(read.inputSchema.required).toEqual(["path"]);
  });

  it("turns a multi-MB file read into a handle plus a resource_link, and drops the duplicated structuredContent", async () => {
    const r = await call("read_text_file", { path: join(files.path, "build.log") });
    expect(r.isError).toBeFalsy();
    const handle = textOf(r);
    expect(handle.length).toBeLessThan(20_000);
    expect(handle).toMatch(/PREVIEW, NOT the full output/);
    logId = idIn(handle);
    expect(handle).toContain(`rescuer_fetch(id="${logId}"`);
    expect(handle).toContain(`spill:${logId}`);
    const link = r.content.find((c) => c.type === "resource_link");
    expect(link).toMatchObject({ type: "resource_link", uri: `spillway://blob/${logId}` });
    expect(r.structuredContent).toBeUndefined();
  });

  it("answers every fetch mode through MCP", async () => {
    const stat = textOf(await fetch({ id: logId, mode: "stat" }));
    expect(stat).toContain(logText.length.toLocaleString("en-US"));
    expect(textOf(await fetch({ id: logId, mode: "outline" }))).toMatch(/error/i);
    const search = await fetch({ id: logId, mode: "search", query: "upload failed timeout", top_k: 2 });
    expect(textOf(search)).toMatch(/failed \(timeout\)/);
    const grep = textOf(await fetch({ id: logId, mode: "grep", pattern: "chunk 7 failed" }));
    expect(grep).toContain("upload of chunk 7 failed");
    const chain = textOf(await fetch({ id: logId, mode: "chain", pattern: "chunk 218 failed", context: 1 }));
    expect(chain).toContain("processed chunk 217");
    expect(chain).toContain("processed chunk 219");
    const range = textOf(await fetch({ id: logId, mode: "range", start: 100, count: 2 }));
    expect(range).toContain(logText.split("\n")[100]);
    expect(range).toContain(logText.split("\n")[101]);
    const full = await fetch({ id: logId, mode: "full" });
    expect(full.isError).toBe(true);
    expect(textOf(full)).toMatch(/grep|range|search/);

    const jr = await call("read_text_file", { path: join(files.path, "jobs.json") });
    jsonId = idIn(textOf(jr));
    const query = textOf(await fetch({ id: jsonId, mode: "query", expression: "[?status=='failed'].name | [0:3]" }));
    expect(query).toContain("job-0");
    expect(query).toContain("job-9");
    const fullJson = await fetch({ id: jsonId, mode: "full" });
    expect(textOf(fullJson)).toContain(jsonText);

    const bad = await fetch({ id: "zzz", mode: "stat" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/not a valid/);
  });

  it("serves the blob as a resource to its own session", async () => {
    const res = await client.readResource({ uri: `spillway://blob/${logId}` });
    expect(res.contents[0]).toMatchObject({ uri: `spillway://blob/${logId}` });
    expect((res.contents[0] as { text: string }).text).toBe(logText);
    const list = await client.listResources();
    expect(list.resources.map((r) => r.uri)).toContain(`spillway://blob/${logId}`);
  });

  it("passes spill:<id> to a tool as the exact stored content, but not to a shell-like tool", async () => {
    const d = textOf(await call("digest", { text: `spill:${jsonId}` }));
    expect(d).toBe(`length=${jsonText.length} sha256=${sha(jsonText)}`);
    const shell = await call("run_shell", { command: `cat spill:${jsonId}` });
    const shellText = textOf(shell);
    expect(shellText).toContain(`received ${`cat spill:${jsonId}`.length} chars`);
    expect(shellText).toMatch(/not expanded for run_shell/);
    // over the per-token cap (500,000 chars): the token stays as written, with the reason
    const huge = textOf(await call("digest", { text: `spill:${logId}` }));
    expect(huge).toContain(`length=${`spill:${logId}`.length} `);
    expect(huge).toMatch(/not expanded/);
  });

  it("stubs a repeated result and recall_result gives back the exact bytes", async () => {
    const args = { lines: 150, seed: "dedup" };
    const first = await call("big_log", args);
    const firstText = textOf(first);
    const second = await call("big_log", args);
    const stub = textOf(second);
    expect(stub.split("\n")).toHaveLength(1);
    expect(stub).toMatch(/recall_result\(result_id="[0-9a-f]{12}"\)/);
    const recalled = await call("recall_result", { result_id: idIn(stub) });
    expect(textOf(recalled)).toBe(firstText);
  });

  it("reports a crashed upstream clearly and works again on the next call", async () => {
    const pidBefore = textOf(await call("pid"));
    const crash = await call("crash");
    expect(crash.isError).toBe(true);
    expect(textOf(crash)).toMatch(/fx stopped while running crash/);
    const after = await call("digest", { text: "hello" });
    expect(after.isError).toBeFalsy();
    expect(textOf(after)).toBe(`length=5 sha256=${sha("hello")}`);
    expect(textOf(await call("pid"))).not.toBe(pidBefore);
  });

  it("relays upstream progress under the client's token", async () => {
    const seen: number[] = [];
    const r = await client.callTool({ name: "slow", arguments: { steps: 3, ms: 20 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(textOf(r)).toBe("done after 3 steps");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("passes a client's cancellation on to the upstream", async () => {
    const abort = new AbortController();
    const pending = client.callTool({ name: "slow", arguments: { steps: 100, ms: 30 } }, undefined, { signal: abort.signal });
    setTimeout(() => abort.abort("user pressed stop"), 200);
    await expect(pending).rejects.toThrow();
    for (let i = 0; i < 50 && textOf(await call("cancelled_count")) === "0"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(textOf(await call("cancelled_count"))).toBe("1");
    // and the audit says what happened: a cancel, not a timeout that never was
    const db = new Database(join(home.path, "index.sqlite"), { readonly: true });
    try {
      const row = db.prepare("SELECT raw_text FROM calls WHERE tool = 'slow' ORDER BY id DESC LIMIT 1").get() as { raw_text: string };
      expect(row.raw_text).toBe("The call to slow was cancelled.");
    } finally {
      db.close();
    }
  });

  it("forwards tools/list_changed from an upstream", async () => {
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
    const name = textOf(await call("add_tool"));
    await changed;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain(name);
    expect(textOf(await call(name))).toBe(`${name} works`);
  });
});
