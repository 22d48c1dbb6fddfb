/**
 * rescuer_fetch through `spillway mcp` over stdio, on a multi-MB result from a real stdio
 * upstream: stat, range and grep answer from the parts of the blob they serve. Past the first
 * range, everything after the blob's first MiB is overwritten on disk; what lies there is
 * refused as damaged, and the answers that do not need it still come, byte-exact.
 */
import { closeSync, existsSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { tempHome } from "../helpers/tempHome";
import { bigLog } from "./fixtures/bigPayload";
import { bigUpstream, idIn, stdioClient, textOf, writeConfig } from "./helpers/setup";

const MB = 1024 * 1024;

describe("rescuer_fetch in parts over stdio", () => {
  const home = tempHome("spillway-parts-");
  let client: Client;
  beforeAll(async () => {
    writeConfig(home.path, { mcpServers: { big: bigUpstream() } });
    client = await stdioClient(home.path);
  });
  afterAll(async () => {
    await client?.close();
    home.cleanup();
  });
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;

  it("serves stat, range and grep of a 3 MB result without reading the rest of its file", async () => {
    const text = bigLog(3, "p");
    const lines = text.split("\n").slice(0, -1);
    const id = idIn(textOf(await call("huge", { mb: 3, seed: "p" })));
    const fetch = async (args: Record<string, unknown>) => textOf(await call("rescuer_fetch", { id, ...args }));
    const n = lines.length.toLocaleString("en-US");

    expect(await fetch({ mode: "range", start: 5, count: 2 })).toBe(`lines 5–6 of ${n} in ${id}:\n${lines.slice(5, 7).join("\n")}`);
    const file = join(home.path, "blobs", id.slice(0, 2), id);
    expect(existsSync(`${file}.lines`)).toBe(true);
    const fd = openSync(file, "r+");
    const size = statSync(file).size;
    writeSync(fd, Buffer.alloc(size - MB, "#"), 0, size - MB, MB);
    closeSync(fd);

    expect(await fetch({ mode: "stat" })).toContain(`lines: ${n}`);
    expect(await fetch({ mode: "range", start: 1000, count: 3 })).toBe(
      `lines 1000–1002 of ${n} in ${id}:\n${lines.slice(1000, 1003).join("\n")}`,
    );
    // A pattern on nearly every line fills the answer from the first lines; a rare one has to read on.
    const grep = await fetch({ mode: "grep", pattern: "INFO worker" });
    expect(grep).toContain(`L0: ${lines[0]}`);
    expect(grep).toMatch(/at least [\d,]+ matching lines/);
    expect(await fetch({ mode: "grep", pattern: "ERROR worker" })).toMatch(/cannot be served: its stored copy is damaged/);
    expect(await fetch({ mode: "range", start: lines.length - 3, count: 1 })).toMatch(/cannot be served: its stored copy is damaged/);
  });
});
