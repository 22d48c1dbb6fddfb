import { removeJsonEntry, setJsonEntry } from "./jsonEntry";

const ENTRY = { command: "node", args: ["/opt/spillway/bin/spillway.js", "mcp"], timeout: 300000 };

describe("setJsonEntry", () => {
  it("creates the nesting in a new file", () => {
    expect(JSON.parse(setJsonEntry(undefined, ["mcpServers", "spillway"], ENTRY))).toEqual({ mcpServers: { spillway: ENTRY } });
  });

  it("keeps the user's other keys, servers and key order, and the file's indentation", () => {
    const doc =
      JSON.stringify(
        {
          theme: "dark",
          mcpServers: { files: { command: "npx" }, spillway: { command: "old", trust: false } },
          telemetry: { enabled: false },
        },
        null,
        4,
      ) + "\n";
    const out = setJsonEntry(doc, ["mcpServers", "spillway"], ENTRY);
    const parsed = JSON.parse(out);
    expect(Object.keys(parsed)).toEqual(["theme", "mcpServers", "telemetry"]);
    expect(parsed.mcpServers.files).toEqual({ command: "npx" });
    expect(parsed.mcpServers.spillway).toEqual({ ...ENTRY, trust: false });
    expect(out).toMatch(/^ {4}"theme"/m);
    expect(setJsonEntry(out, ["mcpServers", "spillway"], ENTRY)).toBe(out);
  });

  it("refuses a file with comments instead of dropping them, and a wrong shape with its path", () => {
    expect(() => setJsonEntry('{ // mine\n "a": 1 }', ["mcp", "spillway"], ENTRY, "opencode.jsonc")).toThrow(
      /opencode.jsonc is not plain JSON/,
    );
    expect(() => setJsonEntry('{ "mcp": [] }', ["mcp", "spillway"], ENTRY)).toThrow(/"mcp" in the file is not an object/);
    expect(() => setJsonEntry("[1]", ["mcp", "spillway"], ENTRY)).toThrow(/does not hold a JSON object/);
  });
});

describe("removeJsonEntry", () => {
  it("takes out only Spillway's entry, keeping the user's servers, keys and indentation", () => {
    const doc = JSON.stringify({ theme: "dark", mcpServers: { fs: { command: "npx" }, spillway: ENTRY } }, null, 4) + "\n";
    const out = removeJsonEntry(doc, ["mcpServers", "spillway"])!;
    expect(out).toBe(JSON.stringify({ theme: "dark", mcpServers: { fs: { command: "npx" } } }, null, 4) + "\n");
    // Merging then removing gives a canonically written file back as it was.
    const mine = JSON.stringify({ theme: "dark", mcpServers: { fs: { command: "npx" } } }, null, 2) + "\n";
    expect(removeJsonEntry(setJsonEntry(mine, ["mcpServers", "spillway"], ENTRY), ["mcpServers", "spillway"])).toBe(mine);
  });

  it("leaves a file without the entry, or no file, as it is, and refuses one with comments", () => {
    const doc = '{"mcpServers": {"fs": {}}}';
    expect(removeJsonEntry(doc, ["mcpServers", "spillway"])).toBe(doc);
    expect(removeJsonEntry('{"mcp": 3}', ["mcp", "spillway"])).toBe('{"mcp": 3}');
    expect(removeJsonEntry(undefined, ["mcpServers", "spillway"])).toBeUndefined();
    expect(() => removeJsonEntry('{ // mine\n "mcpServers": {} }', ["mcpServers", "spillway"])).toThrow(/not plain JSON/);
  });
});
