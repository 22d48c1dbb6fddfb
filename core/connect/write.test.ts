import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { AGENTS, findAgent } from "./agents";
import { applyRemove, applyWrite, backupStamp, type HostEnv } from "./write";
import { TEST_CONNECT_CONTEXT } from "../../tests/helpers/connectContext";

const CONTEXT = TEST_CONNECT_CONTEXT;
const NOW = new Date("2026-03-04T05:06:07.890Z");

describe("connect --write", () => {
  let dir: ReturnType<typeof tempHome>;
  let host: HostEnv;
  beforeEach(() => {
    dir = tempHome("spillway-connect-");
    host = { homeDir: dir.path, env: {} };
  });
  afterEach(() => dir.cleanup());

  const target = (name: string) => findAgent(name)!.writeTarget!(CONTEXT, host);

  it("finds each host's user-level file, following the variables the host itself follows", () => {
    expect(target("codex").file).toBe(join(dir.path, ".codex/config.toml"));
    expect(target("gemini-cli").file).toBe(join(dir.path, ".gemini/settings.json"));
    expect(target("opencode").file).toBe(join(dir.path, ".config/opencode/opencode.json"));
    expect(target("cursor").file).toBe(join(dir.path, ".cursor/mcp.json"));
    host.env = { CODEX_HOME: "/c", GEMINI_CLI_HOME: "/g", XDG_CONFIG_HOME: "/x" };
    expect(target("codex").file).toBe("/c/config.toml");
    expect(target("gemini-cli").file).toBe("/g/.gemini/settings.json");
    expect(target("opencode").file).toBe("/x/opencode/opencode.json");
  });

  it("merges into the opencode.jsonc that `opencode mcp add` creates when it is the one there", () => {
    const jsonc = join(dir.path, ".config/opencode/opencode.jsonc");
    applyWrite({ file: jsonc, merge: () => "{}\n", remove: (c) => c, check: "" });
    expect(target("opencode").file).toBe(jsonc);
  });

  it("writes a new file without a backup, then backs up the old file before changing it, keeping its mode", () => {
    const t = target("gemini-cli");
    const first = applyWrite(t, NOW);
    expect(first).toEqual({ file: t.file, backup: undefined, changed: true });
    expect(JSON.parse(readFileSync(t.file, "utf8")).mcpServers.spillway).toEqual({ command: "node", args: CONTEXT.args, timeout: 300000 });

    const mine = JSON.stringify({ ui: { theme: "GitHub" }, mcpServers: { spillway: { command: "old" } } }, null, 2);
    writeFileSync(t.file, mine);
    chmodSync(t.file, 0o640);
    const second = applyWrite(t, NOW);
    expect(second.backup).toBe(`${t.file}.bak-${backupStamp(NOW)}`);
    expect(readFileSync(second.backup!, "utf8")).toBe(mine);
    expect(statSync(t.file).mode & 0o777).toBe(0o640);
    expect(JSON.parse(readFileSync(t.file, "utf8")).ui).toEqual({ theme: "GitHub" });

    // Unchanged: no write, no new backup.
    expect(applyWrite(t, NOW)).toEqual({ file: t.file, changed: false });
    expect(readdirSync(join(dir.path, ".gemini")).filter((f) => f.includes(".bak-"))).toHaveLength(1);
  });

  it("never overwrites an earlier backup of the same second", () => {
    const t = target("codex");
    applyWrite({ ...t, merge: () => 'model = "a"\n' }, NOW);
    applyWrite({ ...t, merge: () => 'model = "b"\n' }, NOW);
    applyWrite({ ...t, merge: () => 'model = "c"\n' }, NOW);
    expect(readFileSync(`${t.file}.bak-${backupStamp(NOW)}`, "utf8")).toBe('model = "a"\n');
    expect(readFileSync(`${t.file}.bak-${backupStamp(NOW)}-2`, "utf8")).toBe('model = "b"\n');
  });

  it("leaves a file it cannot merge untouched, without a backup", () => {
    const t = target("opencode");
    applyWrite({ ...t, merge: () => '{ "mcp": { "a": 1 } "b": 2 }\n' });
    expect(() => applyWrite(t, NOW)).toThrow(/is not valid JSON at line 1, column 21 \(expected "," or "}"\); it was left as it is/);
    expect(readFileSync(t.file, "utf8")).toBe('{ "mcp": { "a": 1 } "b": 2 }\n');
    expect(existsSync(`${t.file}.bak-${backupStamp(NOW)}`)).toBe(false);
  });

  it("opencode: merges into the file that holds the entry, and removes it from every file OpenCode reads", () => {
    const cfg = join(dir.path, ".config/opencode");
    mkdirSync(cfg, { recursive: true });
    const [json, jsonc, config] = ["opencode.json", "opencode.jsonc", "config.json"].map((n) => join(cfg, n)) as [string, string, string];
    writeFileSync(json, "{}\n");
    writeFileSync(jsonc, '{ "mcp": { "spillway": { "type": "local" } } }\n');
    writeFileSync(config, '{ "mcp": { "spillway": { "type": "local" }, "a": {} } }\n');
    expect(target("opencode").file).toBe(jsonc);
    expect(target("opencode").removeFrom).toEqual([json, jsonc, config]);
    const results = applyRemove(target("opencode"), NOW);
    expect(results.map((r) => [r.file, r.changed])).toEqual([
      [json, false],
      [jsonc, true],
      [config, true],
    ]);
    expect(readFileSync(jsonc, "utf8")).toBe("{}\n");
    expect(readFileSync(config, "utf8")).toBe('{ "mcp": { "a": {} } }\n');
    expect(target("opencode").file).toBe(json);
  });

  it("--remove edits none of the files when one of them cannot be edited", () => {
    const cfg = join(dir.path, ".config/opencode");
    mkdirSync(cfg, { recursive: true });
    const json = join(cfg, "opencode.json");
    const jsonc = join(cfg, "opencode.jsonc");
    const entry = '{ "mcp": { "spillway": {} } }\n';
    writeFileSync(json, entry);
    writeFileSync(jsonc, entry);
    chmodSync(jsonc, 0o400);
    expect(() => applyRemove(target("opencode"), NOW)).toThrow(`${jsonc} is read-only (mode 0400)`);
    expect([readFileSync(json, "utf8"), readFileSync(jsonc, "utf8")]).toEqual([entry, entry]);
    expect(readdirSync(cfg).filter((f) => f.includes(".bak-"))).toEqual([]);
  });

  it("writes through a link to a file not made yet, and edits a file reached by two links once", () => {
    mkdirSync(join(dir.path, "dotfiles"));
    mkdirSync(join(dir.path, ".gemini"));
    const link = join(dir.path, ".gemini/settings.json");
    symlinkSync(join(dir.path, "dotfiles/gemini.json"), link);
    expect(applyWrite(target("gemini-cli"), NOW)).toEqual({
      file: link,
      linkTarget: join(dir.path, "dotfiles/gemini.json"),
      changed: true,
    });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(link, "utf8")).mcpServers.spillway.timeout).toBe(300000);

    const cfg = join(dir.path, ".config/opencode");
    mkdirSync(cfg, { recursive: true });
    writeFileSync(join(cfg, "opencode.json"), '{ "mcp": { "spillway": {} } }\n');
    symlinkSync("opencode.json", join(cfg, "opencode.jsonc"));
    expect(applyRemove(target("opencode"), NOW).map((r) => r.changed)).toEqual([true]);
    expect(readdirSync(cfg).filter((f) => f.includes(".bak-"))).toEqual([`opencode.json.bak-${backupStamp(NOW)}`]);
  });

  it("answers to the agent's own command name too (gemini for gemini-cli)", () => {
    expect(findAgent("gemini")).toBe(findAgent("gemini-cli"));
    expect(findAgent("Gemini")?.name).toBe("gemini-cli");
    expect(AGENTS.map((a) => a.name)).not.toContain("gemini");
  });

  it("is offered where there is a config file to merge into, and not for the plugin or per-editor hosts", () => {
    expect(AGENTS.filter((a) => a.writeTarget).map((a) => a.name)).toEqual(
      expect.arrayContaining(["codex", "gemini-cli", "opencode", "cursor"]),
    );
    expect(findAgent("hermes")!.writeTarget).toBeUndefined();
  });
});

describe("backupStamp", () => {
  it("is sortable and safe in a file name", () => {
    expect(backupStamp(NOW)).toBe("20260304T050607Z");
  });
});
