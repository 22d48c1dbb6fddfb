import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig, parseConfig } from "../../config/config";
import { tempHome } from "../../../tests/helpers/tempHome";
import { createEngine } from "../../engine/engine";
import { memoryLogger } from "../../runtime";
import { configJsonSchema, diffFromDefaults, readConfigView, saveConfig, validateConfig } from "./configEdit";

describe("config editing", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("validates with the engine's schema and names the bad key", () => {
    expect(validateConfig({ rescue: { thresholdChars: 5000 } }).valid).toBe(true);
    const bad = validateConfig({ rescue: { thresholdChars: 10 }, fetch: { nope: 1 } });
    expect(bad.valid).toBe(false);
    if (!bad.valid) expect(bad.issues.map((i) => i.path)).toEqual(expect.arrayContaining(["rescue.thresholdChars", "fetch"]));
    // An MCP server entry names its own bad key, not "Invalid input" on the whole entry.
    const server = validateConfig({ mcpServers: { fs: { command: "npx", args: "-y x" } } });
    expect(server).toEqual({ valid: false, issues: [{ path: "mcpServers.fs.args", message: expect.stringMatching(/expected array/) }] });
  });

  it("saves only what differs from the defaults, owner-only, and reads it back", () => {
    const path = join(home.path, "config.json");
    const running = defaultConfig();
    const input = { ...running, rescue: { ...running.rescue, thresholdChars: 9000 }, mcpServers: { fs: { command: "npx", args: ["x"] } } };
    const view = saveConfig(path, input, running);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      rescue: { thresholdChars: 9000 },
      mcpServers: { fs: { command: "npx", args: ["x"], env: {} } },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(view).toMatchObject({ exists: true, restartRequired: true });
    expect((view.config.rescue as { thresholdChars: number }).thresholdChars).toBe(9000);
    expect(readConfigView(path, parseConfig(JSON.parse(readFileSync(path, "utf8")))).restartRequired).toBe(false);
  });

  it("shows an upstream's token masked, and saving the form keeps the token, not the marker", async () => {
    const path = join(home.path, "config.json");
    const token = ["ghp", "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"].join("_");
    const bearer = ["sk", "proj", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"].join("-");
    const file = {
      mcpServers: {
        gh: { command: "npx", args: ["gh-mcp"], env: { GITHUB_TOKEN: token } },
        api: { command: "node", args: ["server.js", "--api-key", bearer], env: { OPENAI_API_KEY: bearer } },
      },
    };
    writeFileSync(path, JSON.stringify(file));
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    const mask = (t: string) => engine.operatorView(t);
    try {
      const view = readConfigView(path, defaultConfig(), mask);
      const shown = JSON.stringify(view.config);
      expect(shown).not.toContain(token);
      expect(shown).not.toContain(bearer);
      expect(shown).toContain("[masked:");
      // The form comes back with one change of the user's and the markers as they were shown.
      const edited = structuredClone(view.config) as typeof file & { rescue: { thresholdChars: number } };
      edited.rescue.thresholdChars = 9000;
      saveConfig(path, edited, defaultConfig(), mask);
      const saved = JSON.parse(readFileSync(path, "utf8")) as typeof file & { rescue: unknown };
      expect(saved.mcpServers.gh.env.GITHUB_TOKEN).toBe(token);
      expect(saved.mcpServers.api.env.OPENAI_API_KEY).toBe(bearer);
      expect(saved.mcpServers.api.args).toEqual(["server.js", "--api-key", bearer]);
      expect(saved.rescue).toEqual({ thresholdChars: 9000 });
      // A value the user typed over the marker is theirs.
      const retyped = structuredClone(edited);
      retyped.mcpServers.gh.env.GITHUB_TOKEN = "a-new-token-value";
      saveConfig(path, retyped, defaultConfig(), mask);
      expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.gh.env.GITHUB_TOKEN).toBe("a-new-token-value");
    } finally {
      await engine.close();
    }
  });

  it("refuses an invalid config without touching the file", () => {
    const path = join(home.path, "config.json");
    expect(() => saveConfig(path, { store: { maxStoreMb: -1 } }, defaultConfig())).toThrow(/store.maxStoreMb/);
    expect(readConfigView(path, defaultConfig()).exists).toBe(false);
  });

  it("offers the schema with defaults for the form", () => {
    const s = configJsonSchema() as { properties: Record<string, { properties?: Record<string, { default?: unknown }> }> };
    expect(s.properties.rescue!.properties!.thresholdChars!.default).toBe(12_000);
    expect(diffFromDefaults({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } })).toEqual({ a: { c: 2 } });
  });
});
