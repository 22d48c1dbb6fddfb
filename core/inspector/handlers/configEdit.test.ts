import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig, parseConfig } from "../../config/config";
import { tempHome } from "../../../tests/helpers/tempHome";
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
