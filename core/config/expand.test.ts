import { parseConfig } from "./config";
import { expandEntry, expandVariables, MissingVariable } from "./expand";

describe("${VAR} in a server entry", () => {
  const env = { TOKEN: "s3cr3t", HOST: "127.0.0.1:9000", EMPTY: "" };

  it("fills in Claude Code's ${VAR} and ${VAR:-default} and Cursor's ${env:VAR}", () => {
    expect(expandVariables("Bearer ${TOKEN}", env)).toBe("Bearer s3cr3t");
    expect(expandVariables("Bearer ${env:TOKEN}", env)).toBe("Bearer s3cr3t");
    expect(expandVariables("${PORT:-8080}", env)).toBe("8080");
    expect(expandVariables("${EMPTY:-x}", env)).toBe("x");
    expect(expandVariables("${EMPTY}", env)).toBe("");
    expect(expandVariables("no placeholder: $TOKEN {TOKEN}", env)).toBe("no placeholder: $TOKEN {TOKEN}");
  });

  it("names a variable that is not set and has no default", () => {
    expect(() => expandVariables("${NOPE}", env)).toThrow(MissingVariable);
    expect(() => expandVariables("${NOPE}", env)).toThrow(/the entry uses \$\{NOPE\}, which is not set in Spillway's environment/);
  });

  it("expands what reaches the server, and the parsed config keeps the placeholders", () => {
    const c = parseConfig({
      mcpServers: {
        remote: { url: "http://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        local: { command: "${HOME_BIN:-node}", args: ["--token=${env:TOKEN}"], env: { API_KEY: "${TOKEN}" } },
      },
    });
    expect(c.mcpServers.remote).toMatchObject({ url: "http://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } });
    expect(expandEntry(c.mcpServers.remote!, env)).toMatchObject({
      url: "http://127.0.0.1:9000/mcp",
      headers: { Authorization: "Bearer s3cr3t" },
    });
    expect(expandEntry(c.mcpServers.local!, env)).toMatchObject({ command: "node", args: ["--token=s3cr3t"], env: { API_KEY: "s3cr3t" } });
    expect(() => parseConfig({ mcpServers: { bad: { url: "not a url" } } })).toThrow(/"mcpServers\.bad\.url": Invalid URL/);
  });
});
