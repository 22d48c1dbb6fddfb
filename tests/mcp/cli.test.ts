/** The endpoint commands as a user runs them: serve, doctor, connect (and errors as one line). */
import { spawn } from "node:child_process";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../core/cli/main";
import { tempHome } from "../helpers/tempHome";
import { BIN, ROOT, upstream, writeConfig } from "./helpers/setup";

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s + "\n"), err: (s) => (err += s + "\n") });
  return { code, out, err };
}

describe("spillway serve, doctor and connect", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome("spillway-cli-")));
  afterEach(() => home.cleanup());

  it("serve prints the URL and the token file, guards /mcp, and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [BIN, "serve", "--home", home.path, "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (c) => {
        out += c;
        const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    expect(out).toContain(join(home.path, "token"));
    const token = readFileSync(join(home.path, "token"), "utf8").trim();
    expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(401);
    const ok = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
      }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("serve refuses a bad port in one line", async () => {
    const r = await run(["serve", "--home", home.path, "--port", "http"]);
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/--port must be a port number/);
  });

  it("doctor reports one line per check and fails on an unreachable upstream and an open home", async () => {
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture(), broken: { command: join(home.path, "no-such-server") } } });
    chmodSync(home.path, 0o755);
    const r = await run(["doctor", "--home", home.path]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^FAIL {2}home .*0755/m);
    expect(r.out).toMatch(/^ok {4}disk +[\d.]+ (MB|GB|TB) free$/m);
    expect(r.out).toMatch(/^ok {4}index +quick_check ok/m);
    expect(r.out).toMatch(/^ok {4}sweep +dry run: 0 expired/m);
    expect(r.out).toMatch(/^ok {4}upstream +fx: \d+ tools/m);
    expect(r.out).toMatch(/^FAIL {2}upstream +broken: /m);
    chmodSync(home.path, 0o700);
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture() } });
    expect((await run(["doctor", "--home", home.path])).code).toBe(0);
  });

  it("a mistyped option or a negative number is one short line", async () => {
    const bogus = await run(["status", "--bogus", "--home", home.path]);
    expect(bogus.code).toBe(2);
    expect(bogus.err.trim()).toBe("spillway status: Unknown option '--bogus'. Usage: spillway status");
    const negative = await run(["fetch", "abcdef123456", "--start", "-5", "--home", home.path]);
    expect(negative.err).toMatch(
      /^spillway fetch: --start was given a value starting with "-"; write it as --start=<value> if that is what you meant\. Usage: /,
    );
    const noSession = await run(["fetch", "abcdef123456", "--session", "nope", "--home", home.path]);
    expect(noSession.code).toBe(1);
    expect(noSession.err.trim()).toBe("spillway fetch: no session nope in this store (spillway fetch without --session reads any result)");
  });

  it("doctor piped into a reader that stops after one line ends quietly, no stack trace", async () => {
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture() } });
    const r = await new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
      const sh = spawn(
        "bash",
        ["-c", `"${process.execPath}" "${BIN}" doctor --quick --home "${home.path}" 2>"${home.path}/err.txt" | head -1`],
        {
          cwd: ROOT,
        },
      );
      let out = "";
      sh.stdout.on("data", (d) => (out += d));
      sh.on("close", (code) => resolve({ code, out, err: readFileSync(join(home.path, "err.txt"), "utf8") }));
    });
    expect(r.out).toMatch(/^ok\s+home /);
    expect(r.err).toBe("");
  });

  it("connect prints each agent's own config shape", async () => {
    const list = await run(["connect", "--list"]);
    expect(list.out.split("\n").filter(Boolean)).toHaveLength(8);
    const get = async (agent: string) => (await run(["connect", agent, "--home", home.path])).out;
    const claude = await get("claude-code");
    expect(claude).toContain(
      `claude mcp add-json --scope user spillway '${JSON.stringify({ type: "stdio", command: "node", args: [BIN, "mcp", "--home", home.path], alwaysLoad: true })}'`,
    );
    const hooksBlock = claude.slice(claude.lastIndexOf('{\n  "hooks"'), claude.lastIndexOf("\n}") + 2);
    const hooks = JSON.parse(hooksBlock).hooks;
    expect(Object.keys(hooks)).toEqual([
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "PreCompact",
      "SessionStart",
      "UserPromptSubmit",
    ]);
    expect(hooks.PostToolUse[0].hooks[0]).toMatchObject({
      type: "http",
      url: "http://127.0.0.1:7341/hooks/claude-code",
      allowedEnvVars: ["SPILLWAY_TOKEN"],
    });
    expect(hooks.SessionStart[0].matcher).toBe("compact");
    const codex = await get("codex");
    expect(codex).toContain("[mcp_servers.spillway]");
    expect(codex).toContain(`args = [${JSON.stringify(BIN)}, "mcp", "--home", ${JSON.stringify(home.path)}]`);
    expect(await get("opencode")).toContain('"type": "local"');
    expect(await get("hermes")).toContain("hermes plugins enable spillway");
    for (const agent of ["cursor", "gemini-cli", "cline", "windsurf"]) expect(await get(agent)).toContain('"mcpServers"');
    // What stdout holds for a JSON config is JSON, to redirect into the file; the notes go to stderr.
    for (const agent of ["cursor", "cline", "windsurf"]) {
      const r = await run(["connect", agent, "--home", home.path]);
      expect(JSON.parse(r.out).mcpServers.spillway.args).toContain("mcp");
      expect(r.err).toMatch(/^Move the MCP servers you want Spillway to guard/);
    }
    const bad = await run(["connect", "vim"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown agent "vim"/);
  });

  it("a --config file that does not exist is an error in one line, not a silent run on defaults", async () => {
    const missing = join(home.path, "team.json");
    for (const argv of [["serve", "--port", "0"], ["status"], ["connect", "codex"]]) {
      const r = await run([...argv, "--home", home.path, "--config", missing]);
      expect(r.code, argv[0]).toBe(1);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toContain(`${missing}: no such config file`);
    }
  });

  it("takes --home, --config and --json before the command too, as --help lists them beside the commands", async () => {
    const after = await run(["status", "--home", home.path, "--json"]);
    for (const argv of [
      ["--home", home.path, "status", "--json"],
      [`--home=${home.path}`, "--json", "status"],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(0);
      expect(JSON.parse(r.out).home).toBe(home.path);
      expect(r.out).toBe(after.out);
    }
    expect((await run(["--home", home.path, "nonsense"])).err).toMatch(/unknown command "nonsense"/);
  });

  it("connect refuses a port a snippet cannot use, instead of printing a URL with NaN in it", async () => {
    for (const port of ["abc", "99999", "0", "7341.5", ""]) {
      const r = await run(["connect", "claude-code", "--home", home.path, "--port", port]);
      expect(r.code, port).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toMatch(/--port must be a port number \(1 to 65535\)/);
    }
    expect((await run(["connect", "claude-code", "--home", home.path, "--port", "8123"])).out).toContain("http://127.0.0.1:8123/");
  });
});
