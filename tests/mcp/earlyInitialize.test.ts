/**
 * `spillway mcp` as a host spawns it, over real stdio: initialize is answered by the early bundle
 * before the CLI loads, and the requests a host writes at once, before the MCP SDK has loaded, are
 * all answered by the Server after the hand-over, each once; the next start gives tools/list from
 * the last complete answer before the CLI loads. Only a config that served such an answer is
 * answered for early: a bad one ends the process with its one clear sentence before any answer.
 */
import { spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../helpers/tempHome";
import { BIN, ROOT, upstream, writeConfig } from "./helpers/setup";

interface Run {
  answers: Record<string, any>[];
  stderr: string;
  code: number | null;
}

/** Writes `messages` in one go right after spawning, then closes stdin once `until` holds (or at exit). */
function run(home: string, messages: object[], until: (answers: Record<string, any>[]) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "mcp", "--home", home], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    const answers: Record<string, any>[] = [];
    let out = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d: string) => (stderr += d));
    child.stdout.on("data", (d: string) => {
      out += d;
      for (let i = out.indexOf("\n"); i >= 0; i = out.indexOf("\n")) {
        answers.push(JSON.parse(out.slice(0, i)));
        out = out.slice(i + 1);
      }
      if (until(answers)) child.stdin.end();
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ answers, stderr, code }));
    child.stdin.on("error", () => {});
    child.stdin.write(messages.map((m) => JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n").join(""));
  });
}

const initialize = (protocolVersion: string) => ({
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "early-test", version: "1" } },
});

describe("spillway mcp over stdio, initialize answered before the CLI loads", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome("spillway-early-")));
  afterEach(() => home.cleanup());

  it("answers initialize once and every request written with it, each once", async () => {
    writeConfig(home.path, {});
    const ids = [1, 2, 3, 4, 5];
    const r = await run(
      home.path,
      [
        initialize("2025-06-18"),
        { method: "notifications/initialized" },
        { id: 2, method: "tools/list" },
        { id: 3, method: "ping" },
        { id: 4, method: "resources/list" },
        { id: 5, method: "ping" },
      ],
      (a) => ids.every((id) => a.some((m) => m.id === id)),
    );
    expect(r.code).toBe(0);
    expect(r.answers.map((a) => a.id).sort()).toEqual(ids);
    expect(r.answers[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18", serverInfo: { name: "spillway" } } });
    expect(r.answers.find((a) => a.id === 2)!.result.tools.map((t: { name: string }) => t.name)).toContain("rescuer_fetch");
    expect(r.answers.filter((a) => a.error)).toEqual([]);
    expect(r.stderr).toBe("");
  });

  it("offers its latest protocol version to a client asking for one it does not know", async () => {
    writeConfig(home.path, {});
    const r = await run(home.path, [initialize("1999-01-01"), { method: "notifications/initialized" }, { id: 2, method: "ping" }], (a) =>
      a.some((m) => m.id === 2),
    );
    expect(r.answers.map((a) => a.id)).toEqual([1, 2]);
    expect(r.answers[0]!.result.protocolVersion).toBe("2025-11-25");
  });

  it("gives the last complete tools/list again on the next start, and not once the config changed", async () => {
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture() } });
    const handshake = [initialize("2025-06-18"), { method: "notifications/initialized" }, { id: 2, method: "tools/list" }];
    const listed = (a: Record<string, any>[]) => a.some((m) => m.id === 2);
    const first = await run(home.path, handshake, listed);
    const tools = first.answers.find((a) => a.id === 2)!.result.tools.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["rescuer_fetch", "digest"]));
    // Written after the answer went out; the process may end first only if it is already there.
    await new Promise<void>((resolve) => {
      const done = () => {
        if (!existsSync(join(home.path, "tools-list.json"))) return;
        w.close();
        resolve();
      };
      const w = watch(home.path, done);
      done();
    });
    const second = await run(home.path, handshake, listed);
    expect(second.answers).toEqual(first.answers);
    writeConfig(home.path, { mcpServers: { fx: upstream.fixture() }, rescue: { thresholdChars: "many" } });
    const third = await run(home.path, handshake, () => false);
    expect(third.code).toBe(1);
    // Not answered early for a config that never served a list: the host sees the server fail, not connect and then drop.
    expect(third.answers).toEqual([]);
    expect(third.stderr).toMatch(/"rescue\.thresholdChars": Invalid input/);
  });

  it("ends with the config's one clear sentence when the config is bad, without hanging on stdin", async () => {
    writeConfig(home.path, { rescue: { thresholdChars: "many" } });
    // stdin stays open: the process must end by itself.
    const r = await run(home.path, [initialize("2025-06-18")], () => false);
    expect(r.code).toBe(1);
    expect(r.answers).toEqual([]);
    expect(r.stderr).toMatch(/^spillway mcp: .*config\.json: "rescue\.thresholdChars": Invalid input: expected number, received string\n$/);
  });
});
