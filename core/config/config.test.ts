import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { configuredTransport, defaultConfig, loadConfigFile, matchesToolPattern, parseConfig } from "./config";

describe("config", () => {
  it("holds every default of the spec in one place", () => {
    const c = defaultConfig();
    expect(c.rescue.thresholdChars).toBe(12_000);
    expect(c.excerpt.maxChars).toBe(8_000);
    expect(c.fetch).toEqual({ maxChars: 4_000, fullMaxChars: 50_000 });
    expect(c.dedup).toEqual({
      minChars: 2_000,
      maxChars: 2_000_000,
      maxStubStreak: 5,
      nearDuplicates: true,
      nearMaxChangedShare: 0.2,
      echoStubs: true,
    });
    expect(c.excerpt).toEqual({ maxChars: 8_000, minChars: 2_000, share: 0.1 });
    expect(c.store).toMatchObject({ ttlHours: 72, hotTtlHours: 168, tombstoneTtlHours: 720, maxStoreMb: 500 });
    expect(c.passref).toEqual({ maxChars: 500_000, totalMaxChars: 2_000_000, allowedTools: [], credentialDestinations: [] });
    expect(c.sensitivity.mode).toBe("mask");
    expect(c.mcpServers).toEqual({});
  });

  it("accepts the mcpServers shape agents already use (stdio and http)", () => {
    const c = parseConfig({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
        remote: { type: "http", url: "http://127.0.0.1:9000/mcp", headers: { Authorization: "Bearer x" } },
      },
    });
    expect(c.mcpServers.fs).toMatchObject({ command: "npx", env: {} });
    expect(c.mcpServers.remote).toMatchObject({ type: "http", url: "http://127.0.0.1:9000/mcp" });
  });

  it("names the bad key and what was expected", () => {
    expect(() => parseConfig({ rescue: { thresholdChars: "big" } })).toThrow(/"rescue\.thresholdChars".*number/);
    expect(() => parseConfig({ sensitivity: { mode: "loud" } })).toThrow(/"sensitivity\.mode"/);
    expect(() => parseConfig({ rescue: { treshold: 5 } })).toThrow(/rescue.*treshold|Unrecognized key/);
    expect(() => parseConfig({ mcpServers: { x: { args: [] } } })).toThrow(/"mcpServers\.x\.command": .*expected string/);
    expect(() => parseConfig({ mcpServers: { "my server": { command: "x" } } })).toThrow(
      /"mcpServers\.my server": server names use letters, digits, _ \. -$/,
    );
  });

  it("names the key inside an MCP server entry that is wrong, for the kind of server it describes", () => {
    expect(() => parseConfig({ mcpServers: { x: { command: 5 } } })).toThrow(
      /"mcpServers\.x\.command": Invalid input: expected string, received number$/,
    );
    expect(() => parseConfig({ mcpServers: { web: { type: "http", url: 7 } } })).toThrow(
      /"mcpServers\.web\.url": .*expected string, received number$/,
    );
    expect(() => parseConfig({ mcpServers: { web: { type: "websocket", url: "ws://127.0.0.1:1/mcp" } } })).toThrow(/"mcpServers\.web/);
  });

  it("reads server entries moved over as other agents write them", () => {
    const c = parseConfig({
      mcpServers: {
        // Cursor, Claude Code's .mcp.json: a url with no type
        cursor: { url: "http://127.0.0.1:9000/mcp", headers: { Authorization: "Bearer x" } },
        // Claude Code: an HTTP+SSE server
        claude: { type: "sse", url: "http://127.0.0.1:9003/sse" },
        // Gemini CLI: httpUrl, its own timeout and trust
        gemini: { httpUrl: "http://127.0.0.1:9001/mcp", timeout: 30_000, trust: true },
        // OpenCode: a command array and environment; a remote one; one switched off
        local: { type: "local", command: ["npx", "-y", "@modelcontextprotocol/server-memory"], environment: { A: "1" } },
        remote: { type: "remote", url: "http://127.0.0.1:9002/mcp" },
        off: { type: "local", command: ["node", "x.js"], enabled: false },
        // Cline, Windsurf: disabled and approval lists
        cline: { command: "node", args: ["y.js"], disabled: true, autoApprove: ["read"], alwaysAllow: [] },
      },
    });
    // No type: either HTTP transport, found when connecting (Streamable HTTP first).
    expect(c.mcpServers.cursor).toEqual({ url: "http://127.0.0.1:9000/mcp", headers: { Authorization: "Bearer x" } });
    expect(configuredTransport(c.mcpServers.cursor!)).toBe("http");
    expect(c.mcpServers.claude).toEqual({ type: "sse", url: "http://127.0.0.1:9003/sse", headers: {} });
    expect(configuredTransport(c.mcpServers.claude!)).toBe("sse");
    expect(configuredTransport(c.mcpServers.cline!)).toBe("stdio");
    expect(c.mcpServers.gemini).toEqual({ type: "http", url: "http://127.0.0.1:9001/mcp", headers: {} });
    expect(c.mcpServers.local).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
      env: { A: "1" },
    });
    expect(c.mcpServers.remote).toEqual({ url: "http://127.0.0.1:9002/mcp", headers: {} });
    expect(c.mcpServers.off).toMatchObject({ command: "node", args: ["x.js"], disabled: true });
    expect(c.mcpServers.cline).toEqual({ command: "node", args: ["y.js"], env: {}, disabled: true });
    // A key no host and no Spillway knows is named, not dropped (it may have meant something).
    expect(() => parseConfig({ mcpServers: { x: { command: "node", includeTools: ["a"] } } })).toThrow(
      /"mcpServers\.x": Unrecognized key: "includeTools"/,
    );
    // Cursor's envFile is not ignored: the server would start without the variables it loads.
    expect(() => parseConfig({ mcpServers: { x: { command: "node", envFile: ".env" } } })).toThrow(
      /"mcpServers\.x": Unrecognized key: "envFile"/,
    );
  });

  it("names every bad key at once, so one edit fixes them all (the first five, then how many more)", () => {
    const message = (input: unknown) => {
      try {
        parseConfig(input, "config.json");
      } catch (err) {
        return (err as Error).message;
      }
      return "parsed";
    };
    const two = message({ rescue: { thresholdChars: "big" }, fetch: { maxChars: -1 } });
    expect(two).toMatch(/^config\.json: "rescue\.thresholdChars": .*number.*; "fetch\.maxChars": /);
    const many = message({
      rescue: { thresholdChars: "a" },
      fetch: { maxChars: "b", fullMaxChars: "c" },
      dedup: { minChars: "d", maxChars: "e" },
      store: { ttlHours: "f", maxStoreMb: "g" },
    });
    expect(many.match(/"[a-zA-Z.]+": /g)).toHaveLength(5);
    expect(many).toMatch(/; and 2 more$/);
  });

  it("reads config.json, and a malformed file is a clear error naming the file", () => {
    const home = tempHome();
    const path = join(home.path, "config.json");
    expect(loadConfigFile(path).rescue.thresholdChars).toBe(12_000);
    writeFileSync(path, JSON.stringify({ rescue: { thresholdChars: 5000 } }));
    expect(loadConfigFile(path).rescue.thresholdChars).toBe(5000);
    writeFileSync(path, "{ not json");
    expect(() => loadConfigFile(path)).toThrow(/config\.json: not valid JSON: line 1, column 3 \(expected a key in double quotes\)$/);
    // Where a user made the mistake, as a line and column, not a character offset.
    writeFileSync(path, '{\n  "rescue": { "thresholdChars": 5000 }\n  "mcpServers": {}\n}\n');
    expect(() => loadConfigFile(path)).toThrow(/config\.json: not valid JSON: line 3, column 3 \(expected "," or "}"\)$/);
    // Comments (as in the agents' JSONC configs) are named as such.
    writeFileSync(path, '{\n  // mine\n  "rescue": { "thresholdChars": 5000 },\n}\n');
    expect(() => loadConfigFile(path)).toThrow(
      /config\.json: not valid JSON: it has comments or trailing commas, which this file may not \(plain JSON only\)$/,
    );
    home.cleanup();
  });

  it("matches tool patterns with * wildcards only", () => {
    expect(matchesToolPattern("fs__*", "fs__read_file")).toBe(true);
    expect(matchesToolPattern("read_file", "read_file")).toBe(true);
    expect(matchesToolPattern("read.file", "readXfile")).toBe(false);
  });
});

describe("the README's config block", () => {
  it("lists every key with its real default", () => {
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Configure"));
    const block = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const { mcpServers: _example, ...documented } = JSON.parse(block) as Record<string, unknown>;
    const { mcpServers: _none, ...defaults } = defaultConfig();
    expect(documented).toEqual(defaults);
  });
});
