import fc from "fast-check";
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

  it("refuses a file that is not JSON with where, and a wrong shape with its path", () => {
    expect(() => setJsonEntry('{\n  "a": 1\n  "mcp": {}\n}', ["mcp", "spillway"], ENTRY, "opencode.jsonc")).toThrow(
      /opencode.jsonc is not valid JSON at line 3, column 3 \(expected "," or "}"\); it was left as it is/,
    );
    expect(() => setJsonEntry('{ "a": "x', ["mcp", "spillway"], ENTRY)).toThrow(/a string that is never closed/);
    expect(() => setJsonEntry('{ /* "a": 1 }', ["mcp", "spillway"], ENTRY)).toThrow(/a comment that is never closed/);
    expect(() => setJsonEntry('{ "a": 1 } x', ["mcp", "spillway"], ENTRY)).toThrow(/more text after the end/);
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

  it("leaves a file without the entry, or no file, as it is, and refuses one that is not JSON", () => {
    const doc = '{"mcpServers": {"fs": {}}}';
    expect(removeJsonEntry(doc, ["mcpServers", "spillway"])).toBe(doc);
    expect(removeJsonEntry('{"mcp": 3}', ["mcp", "spillway"])).toBe('{"mcp": 3}');
    expect(removeJsonEntry(undefined, ["mcpServers", "spillway"])).toBeUndefined();
    const commented = '{ // mine\n "mcpServers": {} }';
    expect(removeJsonEntry(commented, ["mcpServers", "spillway"])).toBe(commented);
    expect(() => removeJsonEntry('{ "mcpServers": {', ["mcpServers", "spillway"])).toThrow(/not valid JSON at line 1/);
  });
});

describe("a config file edited in place (JSONC: comments, trailing commas, its own layout)", () => {
  const SP = { command: "node", args: ["/s.js", "mcp"], timeout: 300000 };
  const PATH = ["mcpServers", "spillway"];

  it("adds the entry after the user's servers (with the file's trailing comma) and changes nothing else, byte for byte", () => {
    const doc = [
      "// Gemini settings, by hand",
      "{",
      '\t"theme": "GitHub", // my theme',
      '\t"mcpServers": {',
      "\t\t/* the file server */",
      '\t\t"files": {"command": "npx", "args": ["-y", "fs"]},',
      "\t},",
      "}",
      "",
    ].join("\r\n");
    const out = setJsonEntry(doc, PATH, SP);
    expect(out).toBe(
      [
        "// Gemini settings, by hand",
        "{",
        '\t"theme": "GitHub", // my theme',
        '\t"mcpServers": {',
        "\t\t/* the file server */",
        '\t\t"files": {"command": "npx", "args": ["-y", "fs"]},',
        '\t\t"spillway": {',
        '\t\t\t"command": "node",',
        '\t\t\t"args": [',
        '\t\t\t\t"/s.js",',
        '\t\t\t\t"mcp"',
        "\t\t\t],",
        '\t\t\t"timeout": 300000',
        "\t\t},",
        "\t},",
        "}",
        "",
      ].join("\r\n"),
    );
    // Written again: nothing to change. Taken out: the user's file as it was.
    expect(setJsonEntry(out, PATH, SP)).toBe(out);
    expect(removeJsonEntry(out, PATH)).toBe(doc);
  });

  it("puts the comma after the last member's value, before its comment", () => {
    const doc = '{\n  "mcpServers": {\n    "a": {} // first\n  }\n}\n';
    expect(setJsonEntry(doc, PATH, { command: "x" })).toBe(
      '{\n  "mcpServers": {\n    "a": {}, // first\n    "spillway": {\n      "command": "x"\n    }\n  }\n}\n',
    );
  });

  it("creates the missing level at the end of the root, and fills an empty object on lines of its own", () => {
    expect(setJsonEntry('{\n  "theme": "dark"\n}\n', PATH, { command: "x" })).toBe(
      '{\n  "theme": "dark",\n  "mcpServers": {\n    "spillway": {\n      "command": "x"\n    }\n  }\n}\n',
    );
    expect(setJsonEntry("{}\n", PATH, { command: "x" })).toBe(
      '{\n  "mcpServers": {\n    "spillway": {\n      "command": "x"\n    }\n  }\n}\n',
    );
    expect(setJsonEntry('{\n  "mcpServers": {\n  }\n}', PATH, { command: "x" })).toBe(
      '{\n  "mcpServers": {\n    "spillway": {\n      "command": "x"\n    }\n  }\n}',
    );
  });

  it("updates only the values that differ in an existing entry, keeping the user's own keys and comments in it", () => {
    const doc =
      '{\n  "mcpServers": {\n    "spillway": {\n      // pinned by me\n      "trust": true,\n      "command": "old",\n      "args": ["/s.js", "mcp"],\n    },\n  },\n}\n';
    expect(setJsonEntry(doc, PATH, SP)).toBe(
      '{\n  "mcpServers": {\n    "spillway": {\n      // pinned by me\n      "trust": true,\n      "command": "node",\n      "args": ["/s.js", "mcp"],\n      "timeout": 300000,\n    },\n  },\n}\n',
    );
  });

  it("edits a one-line file inline", () => {
    expect(setJsonEntry('{"mcpServers": {"a": {}}}', PATH, { command: "x" })).toBe(
      '{"mcpServers": {"a": {}, "spillway": {"command":"x"}}}',
    );
    expect(removeJsonEntry('{"mcpServers": {"a": {}, "spillway": {"command":"x"}}}', PATH)).toBe('{"mcpServers": {"a": {}}}');
    expect(removeJsonEntry('{"mcpServers": {"spillway": {}, "a": {}}}', PATH)).toBe('{"mcpServers": {"a": {}}}');
    // A level left empty goes too (--write made it when it was missing; empty, it means no servers).
    expect(removeJsonEntry('{"mcpServers": {"spillway": {}}}', PATH)).toBe("{}");
    expect(removeJsonEntry('{"theme": 1, "mcpServers": {"spillway": {}}}', PATH)).toBe('{"theme": 1}');
  });

  it("takes out an entry in the middle, first or last, with one comma, leaving the comments around it", () => {
    const doc = '{\n  "mcp": {\n    // mine\n    "a": 1,\n    "spillway": {\n      "x": 1\n    },\n    "b": 2 // two\n  }\n}\n';
    expect(removeJsonEntry(doc, ["mcp", "spillway"])).toBe('{\n  "mcp": {\n    // mine\n    "a": 1,\n    "b": 2 // two\n  }\n}\n');
    const last = '{\n  "mcp": {\n    "a": 1, // one\n    "spillway": {\n      "x": 1\n    }\n  }\n}\n';
    expect(removeJsonEntry(last, ["mcp", "spillway"])).toBe('{\n  "mcp": {\n    "a": 1 // one\n  }\n}\n');
    const first = '{\n  "mcp": {\n    "spillway": {"x": 1},\n    "a": 1\n  }\n}\n';
    expect(removeJsonEntry(first, ["mcp", "spillway"])).toBe('{\n  "mcp": {\n    "a": 1\n  }\n}\n');
  });

  it("round-trips any plain JSON layout: the merged value is what JSON.parse reads, and removing gives the file back", () => {
    const key = fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== "spillway" && k !== "mcpServers" && k !== "__proto__");
    const value = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 4 }),
        fc.dictionary(key, value, { minKeys: 1, maxKeys: 3 }),
        fc.constantFrom(0, 2, 4, "\t"),
        (root, servers, indent) => {
          const doc = JSON.stringify({ ...root, mcpServers: servers }, null, indent) + "\n";
          const out = setJsonEntry(doc, PATH, SP);
          expect(JSON.parse(out)).toEqual({ ...JSON.parse(doc), mcpServers: { ...JSON.parse(doc).mcpServers, spillway: SP } });
          expect(removeJsonEntry(out, PATH)).toBe(doc);
        },
      ),
      { numRuns: 300 },
    );
  });
});
