import { setJsonEntry } from "./jsonEntry";

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
