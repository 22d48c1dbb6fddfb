/**
 * Codex CLI 0.171.0 (`codex exec`, headless) against a scripted Responses API model, with
 * `spillway mcp` configured exactly as `spillway connect codex --write` puts it in config.toml,
 * in front of the fixture upstream. Asserts what the model received, request by request.
 */
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { handleId, GREP_PATTERN } from "../models/policy";
import { promptTable } from "../models/report";
import { responsesAdapter } from "../models/responses";
import { startModelServer, type LoggedRequest, type ModelServer } from "../models/server";
import {
  baseEnv,
  blackholeProxy,
  fixtureUpstream,
  groundTruth,
  hostBin,
  hostDirs,
  run,
  spillway,
  type Blackhole,
  type GroundTruth,
  type HostDirs,
} from "../models/host";
import { expectPolicyOutcome } from "../models/expectations";
import { codexUserConfig } from "./codexConfig";

const CODEX = hostBin("codex");
const userConfig = codexUserConfig;

describe("Codex 0.171.0 with spillway mcp", { timeout: 180_000 }, () => {
  let dirs: HostDirs;
  let proxy: Blackhole;
  let model: ModelServer;
  let truth: GroundTruth;
  let env: Record<string, string | undefined>;
  let codexHome: string;
  let printedTable: string[];

  beforeAll(async () => {
    dirs = hostDirs("spillway-codex-");
    [proxy, model, truth] = await Promise.all([blackholeProxy(), startModelServer(responsesAdapter), groundTruth()]);
    codexHome = join(dirs.home, ".codex");
    env = { ...baseEnv(dirs, proxy.url), CODEX_HOME: codexHome, SCRIPTED_API_KEY: "scripted" };
  });
  afterAll(async () => {
    await Promise.all([model?.close(), proxy?.close()]);
    dirs?.cleanup();
  });

  /** One headless run; the upstream tools the policy calls are approved for it, as a user would. */
  const exec = (server: string, extra: string[] = []) =>
    run(
      CODEX,
      [
        "exec",
        "--json",
        "--skip-git-repo-check",
        ...["big_log", "digest"].flatMap((t) => ["-c", `mcp_servers.${server}.tools.${t}.approval_mode="approve"`]),
        ...extra,
        "Follow the scripted policy.",
      ],
      {
        env,
        cwd: dirs.work,
      },
    );

  it("connect codex --write merges the printed table into the user's config.toml, and codex mcp list reads it", async () => {
    mkdirSync(codexHome, { recursive: true });
    const before = userConfig(model.url, "gpt-5.5");
    writeFileSync(join(codexHome, "config.toml"), before);

    const printed = await spillway(["connect", "codex", "--home", dirs.spillwayHome], env);
    expect(printed.code).toBe(0);
    const lines = printed.out.split("\n");
    const start = lines.indexOf("[mcp_servers.spillway]");
    printedTable = lines.slice(
      start,
      lines.findIndex((l, i) => i > start && l.startsWith("#")),
    );
    expect(printedTable).toContain("required = true");

    const wrote = await spillway(["connect", "codex", "--home", dirs.spillwayHome, "--write"], env);
    expect(wrote.code).toBe(0);
    expect(wrote.out).toContain(join(codexHome, "config.toml"));
    const after = readFileSync(join(codexHome, "config.toml"), "utf8");
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after).toContain(printedTable.join("\n"));
    const backups = readdirSync(codexHome).filter((f) => f.startsWith("config.toml.bak-"));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(codexHome, backups[0]!), "utf8")).toBe(before);

    const list = await run(CODEX, ["mcp", "list", "--json"], { env, cwd: dirs.work });
    expect(list.code).toBe(0);
    const entry = (
      JSON.parse(list.out) as {
        name: string;
        transport: { command: string; args: string[] };
        startup_timeout_sec: number;
        tool_timeout_sec: number;
      }[]
    ).find((s) => s.name === "spillway")!;
    const printedArgs = JSON.parse(printedTable.find((l) => l.startsWith("args = "))!.slice("args = ".length)) as string[];
    expect(entry.transport).toMatchObject({ command: "node", args: printedArgs });
    expect(printedArgs.slice(-3)).toEqual(["mcp", "--home", dirs.spillwayHome]);
    expect(entry).toMatchObject({ startup_timeout_sec: 30, tool_timeout_sec: 300 });
  });

  let withSpillway: LoggedRequest[];
  it("gpt-5.x defers MCP tools: the first request announces mcp__spillway, tool_search loads it, then the policy runs through", async () => {
    const r = await exec("spillway");
    expect(r.code, r.err.slice(-2000)).toBe(0);
    withSpillway = model.requests.splice(0);
    const first = withSpillway[0]!;
    expect(JSON.stringify(first.body)).toMatch(/Deferred tool namespaces:\\n- mcp__spillway: /);
    expect(first.action.type).toBe("discover");
    const second = withSpillway[1]!;
    expect(second.tools).toEqual(
      expect.arrayContaining([
        "mcp__spillway.rescuer_fetch",
        "mcp__spillway.recall_result",
        "mcp__spillway.big_log",
        "mcp__spillway.digest",
      ]),
    );
    expectPolicyOutcome(withSpillway, truth, { recallExact: true });
    expect(proxy.attempts).toEqual([]);
  });

  let without: LoggedRequest[];
  it("the same policy without Spillway (the fixture configured in Codex directly) puts the whole log in every later request", async () => {
    const file = join(codexHome, "config.toml");
    const fx = fixtureUpstream();
    writeFileSync(
      file,
      [
        userConfig(model.url, "gpt-5.5"),
        "[mcp_servers.fx]",
        `command = ${JSON.stringify(fx.command)}`,
        `args = ${JSON.stringify(fx.args)}`,
        `cwd = ${JSON.stringify(fx.cwd)}`,
        "required = true",
        "startup_timeout_sec = 30",
        "",
      ].join("\n"),
    );
    const r = await exec("fx");
    expect(r.code, r.err.slice(-2000)).toBe(0);
    without = model.requests.splice(0);
    const deliver = without.find((q) => q.action.type === "call" && q.action.step === "deliver")!;
    expect(deliver.results[0]!.parts).toContain(truth.log);
    expect(handleId(deliver.results[0]!.text)).toBeUndefined();
    console.log(promptTable("Codex 0.171.0 (gpt-5.5 via a custom Responses provider), o200k tokens per request:", withSpillway, without));
    // The model never held the log with Spillway; without it, it is in every request after the first call.
    const last = (rs: LoggedRequest[]) => rs.filter((q) => q.main).at(-1)!;
    expect(last(without).promptTokens).toBeGreaterThan(last(withSpillway).promptTokens);
  });

  it("a model outside Codex's catalog gets mcp__spillway upfront on the first request (Codex then cuts results to its fallback budget)", async () => {
    writeFileSync(join(codexHome, "config.toml"), userConfig(model.url, "scripted-model") + "\n" + printedTable.join("\n") + "\n");
    const r = await exec("spillway");
    expect(r.code, r.err.slice(-2000)).toBe(0);
    const requests = model.requests.splice(0);
    expect(requests[0]!.tools).toEqual(expect.arrayContaining(["mcp__spillway.rescuer_fetch", "mcp__spillway.recall_result"]));
    expect(requests[0]!.action.type).toBe("call");
    const afterFetch = requests.find((q) => q.action.type === "call" && q.action.step === "repeat")!;
    expect(afterFetch.results[1]!.text).toContain(GREP_PATTERN);
    expectPolicyOutcome(requests, truth, { recallExact: false });
  });

  it("connect codex --remove takes the table out again: the user's file as it was, and codex mcp list without spillway", async () => {
    const file = join(codexHome, "config.toml");
    const before = userConfig(model.url, "gpt-5.5");
    writeFileSync(file, before);
    expect((await spillway(["connect", "codex", "--home", dirs.spillwayHome, "--write"], env)).code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("[mcp_servers.spillway]");

    const removed = await spillway(["connect", "codex", "--home", dirs.spillwayHome, "--remove"], env);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain(`Removed Spillway's entry from ${file}`);
    expect(readFileSync(file, "utf8")).toBe(before);
    const list = await run(CODEX, ["mcp", "list", "--json"], { env, cwd: dirs.work });
    expect(list.code, list.err).toBe(0);
    expect((JSON.parse(list.out) as { name: string }[]).map((s) => s.name)).not.toContain("spillway");

    const again = await spillway(["connect", "codex", "--home", dirs.spillwayHome, "--remove"], env);
    expect(again.out).toContain(`${file} has no Spillway entry; nothing written.`);
  });
});
