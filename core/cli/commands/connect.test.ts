/** `spillway connect <agent> --write / --remove` as a user runs it: what it prints, its exit code, and the files it leaves. */
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../../../tests/helpers/tempHome";
import { main } from "../main";

let dir: ReturnType<typeof tempHome>;
beforeEach(() => {
  dir = tempHome("spillway-connect-cli-");
  vi.stubEnv("HOME", dir.path);
  for (const v of ["XDG_CONFIG_HOME", "CODEX_HOME", "GEMINI_CLI_HOME"]) vi.stubEnv(v, "");
});
afterEach(() => {
  vi.unstubAllEnvs();
  dir.cleanup();
});

async function connect(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["connect", ...argv, "--home", join(dir.path, ".spillway")], {
    out: (s) => (out += s + "\n"),
    err: (s) => (err += s + "\n"),
  });
  return { code, out, err };
}

const backups = (folder: string) => readdirSync(folder).filter((f) => f.includes(".bak-"));

describe("spillway connect --write / --remove", () => {
  it("opencode: --remove takes the entry out of opencode.json and opencode.jsonc both; --write updates the file that holds it", async () => {
    const cfg = join(dir.path, ".config/opencode");
    mkdirSync(cfg, { recursive: true });
    const json = join(cfg, "opencode.json");
    const jsonc = join(cfg, "opencode.jsonc");
    const mine = '{\n  "theme": "opencode"\n}\n';
    writeFileSync(json, mine);
    writeFileSync(jsonc, '{\n  // mine\n  "mcp": {\n    "spillway": { "type": "local", "command": ["old"] }\n  }\n}\n');

    const w = await connect("opencode", "--write");
    expect(w.code).toBe(0);
    expect(w.out).toContain(`Wrote Spillway's entry into ${jsonc}`);
    expect(readFileSync(json, "utf8")).toBe(mine);
    expect(readFileSync(jsonc, "utf8")).toContain('"enabled": true');

    // Both files hold one now (as a user who had pasted the snippet into the other would have it).
    writeFileSync(json, '{\n  "theme": "opencode",\n  "mcp": { "spillway": { "type": "local", "command": ["x"] } }\n}\n');
    const r = await connect("opencode", "--remove");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Removed Spillway's entry from ${json}; the previous file is kept as ${json}.bak-`);
    expect(r.out).toContain(`Removed Spillway's entry from ${jsonc}; the previous file is kept as ${jsonc}.bak-`);
    expect(readFileSync(json, "utf8")).toBe(mine);
    expect(readFileSync(jsonc, "utf8")).toBe("{\n  // mine\n}\n");

    const again = await connect("opencode", "--remove");
    expect(again.out).toContain(`${json} and ${jsonc} have no Spillway entry; nothing written.`);
  });

  it("a symlinked config (dotfiles) stays a link: the file it points to gets the entry, the backup sits beside the link", async () => {
    const dotfiles = join(dir.path, "dotfiles");
    mkdirSync(dotfiles);
    mkdirSync(join(dir.path, ".gemini"));
    const target = join(dotfiles, "gemini-settings.json");
    const link = join(dir.path, ".gemini/settings.json");
    const mine = '{\n  "ui": { "theme": "GitHub" }\n}\n';
    writeFileSync(target, mine);
    symlinkSync("../dotfiles/gemini-settings.json", link);

    const w = await connect("gemini-cli", "--write");
    expect(w.code).toBe(0);
    expect(w.out).toContain(
      `Wrote Spillway's entry into ${target}, the file the link ${link} points to (the link is kept); the previous file is kept as ${link}.bak-`,
    );
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("../dotfiles/gemini-settings.json");
    expect(JSON.parse(readFileSync(target, "utf8")).mcpServers.spillway.args).toContain("mcp");
    expect(backups(join(dir.path, ".gemini")).map((b) => readFileSync(join(dir.path, ".gemini", b), "utf8"))).toEqual([mine]);
    expect(backups(dotfiles)).toEqual([]);

    const r = await connect("gemini-cli", "--remove");
    expect(r.out).toContain(`Removed Spillway's entry from ${target}, the file the link ${link} points to (the link is kept)`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe(mine);
  });

  it("a config its owner made read-only is refused in one line, left untouched, with a non-zero exit", async () => {
    const file = join(dir.path, ".gemini/settings.json");
    mkdirSync(join(dir.path, ".gemini"));
    const mine = '{ "mcpServers": { "spillway": { "command": "old" } } }\n';
    writeFileSync(file, mine);
    chmodSync(file, 0o444);

    for (const op of ["--write", "--remove"]) {
      const r = await connect("gemini-cli", op);
      expect(r.code).not.toBe(0);
      expect(r.out).toBe("");
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toContain(
        `${file} is read-only (mode 0444), so it was left as it is: make it writable (chmod u+w ${file}) and run this again`,
      );
      expect(r.err).toContain(
        op === "--write" ? "or merge what `spillway connect gemini-cli` prints by hand." : "or take Spillway's entry out by hand.",
      );
      expect(readFileSync(file, "utf8")).toBe(mine);
      expect(lstatSync(file).mode & 0o777).toBe(0o444);
      expect(backups(join(dir.path, ".gemini"))).toEqual([]);
    }
  });

  it("codex: --remove refuses an entry written inside an inline mcp_servers table, naming the line, like --write", async () => {
    const file = join(dir.path, ".codex/config.toml");
    mkdirSync(join(dir.path, ".codex"));
    const mine = 'mcp_servers = { spillway = { command = "node", args = ["x"] } }\n';
    writeFileSync(file, mine);

    const w = await connect("codex", "--write");
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/mcp_servers is set as a value \(line 1\).*merge the snippet by hand/);
    const r = await connect("codex", "--remove");
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(`spillway connect: ${file}: mcp_servers is set as a value (line 1) that holds spillway; remove it by hand.\n`);
    expect(readFileSync(file, "utf8")).toBe(mine);
    expect(backups(join(dir.path, ".codex"))).toEqual([]);
  });

  it("accepts gemini, the CLI's own name, for gemini-cli, and lists the canonical names", async () => {
    const r = await connect("gemini", "--write");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Wrote Spillway's entry into ${join(dir.path, ".gemini/settings.json")}`);
    expect((await connect("gemini")).out).toContain('"mcpServers"');
    const list = await connect("--list");
    expect(list.out).toMatch(/^gemini-cli /m);
    expect(list.out).not.toMatch(/^gemini /m);
  });

  it("every snippet's note names HTTP+SSE upstreams as taken, as the config does", async () => {
    for (const agent of ["codex", "gemini-cli", "opencode", "cursor"]) {
      const r = await connect(agent);
      const text = r.out + r.err;
      expect(text).not.toMatch(/not SSE-only/);
      expect(text).toContain('url with "type" "http", "sse" (HTTP+SSE) or none, which tries Streamable HTTP and then SSE');
    }
  });
});
