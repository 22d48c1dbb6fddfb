import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../tests/helpers/tempHome";
import { AGENTS, findAgent, type ConnectContext } from "./agents";
import { applyWrite, backupStamp, type HostEnv } from "./write";

const CONTEXT: ConnectContext = {
  command: "node",
  args: ["/opt/spillway/bin/spillway.js", "mcp"],
  baseUrl: "http://127.0.0.1:7341",
  home: "/h/.spillway",
  tokenFile: "/h/.spillway/token",
  hermesPlugin: "/opt/spillway/integrations/hermes",
};
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
