import { parseKeyPath, removeTomlTable, setTomlTable, type TomlEntry } from "./tomlTable";

const TABLE = ["mcp_servers", "spillway"];
const ENTRIES: TomlEntry[] = [
  { key: "command", value: '"node"' },
  { key: "args", value: '["/opt/spillway/bin/spillway.js", "mcp"]' },
  { key: "required", value: "true" },
];
const WRITTEN = ['command = "node"', 'args = ["/opt/spillway/bin/spillway.js", "mcp"]', "required = true"].join("\n");

describe("setTomlTable", () => {
  it("creates the table in an empty or missing document", () => {
    expect(setTomlTable("", TABLE, ENTRIES)).toBe(`[mcp_servers.spillway]\n${WRITTEN}\n`);
  });

  it("appends the table after the user's config, leaving every line of it as it was", () => {
    const doc = [
      'model = "o3" # mine',
      "",
      "[model_providers.local]",
      'base_url = "http://127.0.0.1:1/v1"',
      "",
      "[mcp_servers.files]",
      'command = "npx"',
      "",
    ].join("\n");
    const out = setTomlTable(doc, TABLE, ENTRIES);
    expect(out.startsWith(doc.trimEnd())).toBe(true);
    expect(out.slice(doc.trimEnd().length)).toBe(`\n\n[mcp_servers.spillway]\n${WRITTEN}\n`);
  });

  it("replaces our keys in an existing table, keeps its other keys, its sub-tables and its place", () => {
    const doc = [
      "[mcp_servers.spillway]",
      'command = "old-node"',
      "args = [",
      '  "old.js", # a comment with ] in it',
      '  "mcp",',
      "]",
      'env_vars = ["SPILLWAY_HOME"]',
      "",
      "[mcp_servers.spillway.env]",
      'command = "not ours: a key of the env sub-table"',
      "",
      "[profiles.fast]",
      'model = "x"',
    ].join("\n");
    const out = setTomlTable(doc, TABLE, ENTRIES);
    expect(out).toBe(
      [
        "[mcp_servers.spillway]",
        WRITTEN,
        'env_vars = ["SPILLWAY_HOME"]',
        "",
        "[mcp_servers.spillway.env]",
        'command = "not ours: a key of the env sub-table"',
        "",
        "[profiles.fast]",
        'model = "x"',
      ].join("\n"),
    );
    expect(setTomlTable(out, TABLE, ENTRIES)).toBe(out);
  });

  it("is not fooled by headers or keys inside multi-line strings and arrays", () => {
    const doc = [
      'developer_instructions = """',
      "[mcp_servers.spillway]",
      'command = "inside a string"',
      '"""',
      "matrix = [",
      "  [1, 2]",
      "]",
      '[mcp_servers."spillway"]',
      "args = ['''",
      "[not.a.header]",
      "''']",
    ].join("\n");
    // The string and the array stay as they were; the quoted header is our table, its multi-line args replaced.
    expect(setTomlTable(doc, TABLE, ENTRIES)).toBe([...doc.split("\n").slice(0, 8), WRITTEN].join("\n"));
  });

  it("refuses a table it cannot merge safely, naming the line", () => {
    expect(() => setTomlTable('mcp_servers.spillway.command = "node"\n', TABLE, ENTRIES)).toThrow(
      /dotted keys or an inline table \(line 1\)/,
    );
    expect(() => setTomlTable('[mcp_servers]\nspillway = { command = "node" }\n', TABLE, ENTRIES)).toThrow(/line 2/);
    expect(() => setTomlTable("[mcp_servers.spillway]\n[mcp_servers.spillway]\n", TABLE, ENTRIES)).toThrow(/appears twice/);
  });

  it("refuses to add the table when its parent is already a value (an inline mcp_servers), naming the line", () => {
    const inline = 'model = "o3"\nmcp_servers = { other = { command = "x" } }\n';
    expect(() => setTomlTable(inline, TABLE, ENTRIES)).toThrow(/mcp_servers is set as a value \(line 2\)/);
    expect(() => setTomlTable("mcp_servers = {}\n", TABLE, ENTRIES)).toThrow(/line 1/);
    // A sibling key that merely shares the prefix is not the parent.
    expect(setTomlTable('mcp_servers_note = "x"\n', TABLE, ENTRIES)).toContain("[mcp_servers.spillway]");
  });

  it("keeps CRLF line endings", () => {
    const out = setTomlTable('model = "o3"\r\n', TABLE, ENTRIES);
    expect(out).toBe(`model = "o3"\r\n\r\n[mcp_servers.spillway]\r\n${WRITTEN.replace(/\n/g, "\r\n")}\r\n`);
  });
});

describe("parseKeyPath", () => {
  it("reads bare, quoted and spaced dotted keys", () => {
    expect(parseKeyPath('mcp_servers . "my.server" . env')).toEqual(["mcp_servers", "my.server", "env"]);
    expect(parseKeyPath("'literal'.x")).toEqual(["literal", "x"]);
    expect(parseKeyPath("1, 2")).toBeUndefined();
  });
});

describe("removeTomlTable", () => {
  it("gives back the user's file byte for byte after a merge appended the table", () => {
    for (const before of ['model = "gpt-5.5"\n', 'model = "gpt-5.5"\r\n\r\n[profiles.x]\r\nmodel = "o"\r\n', "# only a comment\n"]) {
      expect(removeTomlTable(setTomlTable(before, TABLE, ENTRIES), TABLE)).toBe(before);
    }
  });

  it("takes the table and its sub-tables out of the middle, and keeps what describes the next table", () => {
    const doc = [
      'model = "x"',
      "",
      "[mcp_servers.spillway]",
      'command = "node"',
      'env = """',
      "[not.a.header]",
      '"""',
      "",
      "[mcp_servers.spillway.tools.search]",
      'approval_mode = "approve"',
      "",
      "# the other server",
      "[mcp_servers.other]",
      'command = "o"',
      "",
    ].join("\n");
    expect(removeTomlTable(doc, TABLE)).toBe(
      ['model = "x"', "", "# the other server", "[mcp_servers.other]", 'command = "o"', ""].join("\n"),
    );
  });

  it("leaves a document without the table as it is, and refuses a table written with dotted keys", () => {
    const doc = '[mcp_servers.spillwayish]\ncommand = "x"\n';
    expect(removeTomlTable(doc, TABLE)).toBe(doc);
    expect(() => removeTomlTable('mcp_servers.spillway.command = "node"\n', TABLE)).toThrow(
      /dotted keys or an inline table \(line 1\); remove it by hand/,
    );
  });

  it("refuses an entry inside an inline mcp_servers table, naming its line, and leaves one without it alone", () => {
    const inline = 'model = "x"\nmcp_servers = { spillway = { command = "node", args = ["x"] } }\n';
    expect(() => removeTomlTable(inline, TABLE, "/h/.codex/config.toml")).toThrow(
      "/h/.codex/config.toml: mcp_servers is set as a value (line 2) that holds spillway; remove it by hand.",
    );
    const spread = 'mcp_servers = {\n  other = { command = "o" },\n  "spillway".command = "node",\n}\n';
    expect(() => removeTomlTable(spread, TABLE)).toThrow(/mcp_servers is set as a value \(line 1\) that holds spillway/);
    // Not Spillway's entry: another server's argument, or a key of a table nested deeper.
    for (const doc of [
      "mcp_servers = {}\n",
      'mcp_servers = { other = { command = "o", args = ["{ spillway = 1 }", "spillway.x"] } }\n',
      "mcp_servers = { other = { spillway = 1 } }\n",
    ])
      expect(removeTomlTable(doc, TABLE)).toBe(doc);
  });
});
