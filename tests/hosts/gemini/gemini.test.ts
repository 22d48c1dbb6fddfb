/**
 * Gemini CLI 0.61.0 (`gemini -p`, headless) against a scripted Gemini API
 * (`GOOGLE_GEMINI_BASE_URL`), with `spillway mcp` configured exactly as
 * `spillway connect gemini-cli --write` puts it in ~/.gemini/settings.json, in front of the
 * fixture upstream. Asserts what the model received, request by request.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectPolicyOutcome } from "../models/expectations";
import { geminiAdapter } from "../models/gemini";
import {
  baseEnv,
  blackholeProxy,
  handWrittenJsonc,
  keepsLines,
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
import { handleId } from "../models/policy";
import { promptTable } from "../models/report";
import { startModelServer, type LoggedRequest, type ModelServer } from "../models/server";
import { GEMINI_USER_SETTINGS as USER_SETTINGS } from "./geminiSettings";

const GEMINI = hostBin("gemini");

describe("Gemini CLI 0.61.0 with spillway mcp", { timeout: 180_000 }, () => {
  let dirs: HostDirs;
  let proxy: Blackhole;
  let model: ModelServer;
  let truth: GroundTruth;
  let env: Record<string, string | undefined>;
  let settingsFile: string;
  let printedEntry: Record<string, unknown>;
  let userFile: string;

  beforeAll(async () => {
    dirs = hostDirs("spillway-gemini-");
    [proxy, model, truth] = await Promise.all([blackholeProxy(), startModelServer(geminiAdapter(["spillway", "fx"])), groundTruth()]);
    settingsFile = join(dirs.home, ".gemini", "settings.json");
    // Gemini CLI runs no MCP server in an untrusted folder; a headless run says so with this variable.
    env = {
      ...baseEnv(dirs, proxy.url),
      GEMINI_API_KEY: "scripted",
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    };
  });
  afterAll(async () => {
    await Promise.all([model?.close(), proxy?.close()]);
    dirs?.cleanup();
  });

  const prompt = () =>
    run(GEMINI, ["-p", "Follow the scripted policy.", "--yolo", "--output-format", "json", "-m", "scripted-model"], {
      env,
      cwd: dirs.work,
    });

  it("connect gemini-cli --write merges the printed entry into the user settings, and gemini mcp list connects to it", async () => {
    mkdirSync(join(dirs.home, ".gemini"), { recursive: true });
    // A settings file with comments, as Gemini CLI reads it: kept byte for byte.
    const before = handWrittenJsonc(USER_SETTINGS, false);
    writeFileSync(settingsFile, before);
    userFile = before;

    const printed = await spillway(["connect", "gemini-cli", "--home", dirs.spillwayHome], env);
    expect(printed.code).toBe(0);
    const block = printed.out.slice(printed.out.indexOf("{"), printed.out.indexOf("\n}\n") + 2);
    printedEntry = JSON.parse(block).mcpServers.spillway;
    expect(printedEntry).toMatchObject({ command: "node", timeout: 300000 });
    expect(printed.out).toContain("gemini mcp add -s user --timeout 300000 spillway node");

    const wrote = await spillway(["connect", "gemini-cli", "--home", dirs.spillwayHome, "--write"], env);
    expect(wrote.code).toBe(0);
    const after = readFileSync(settingsFile, "utf8");
    // The user's lines, comments included, are all there in order, with the entry added after them.
    expect(keepsLines(before, after)).toBe(true);
    expect(after).toContain(`"mcpServers": {\n    "spillway": ${JSON.stringify(printedEntry, null, 2).replaceAll("\n", "\n    ")}\n  }`);
    const backups = readdirSync(join(dirs.home, ".gemini")).filter((f) => f.startsWith("settings.json.bak-"));
    expect(backups.map((f) => readFileSync(join(dirs.home, ".gemini", f), "utf8"))).toEqual([before]);
    expect(existsSync(join(dirs.work, ".gemini"))).toBe(false);

    const list = await run(GEMINI, ["mcp", "list"], { env, cwd: dirs.work });
    expect(list.code).toBe(0);
    expect(list.out + list.err).toMatch(
      new RegExp(
        `spillway: node ${(printedEntry.args as string[]).join(" ").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(stdio\\) - Connected`,
      ),
    );
  });

  let withSpillway: LoggedRequest[];
  it("the model has Spillway's tools on the first request and gets handle, fetch, stub, exact recall and exact spill: delivery", async () => {
    const r = await prompt();
    expect(r.code, r.err.slice(-3000)).toBe(0);
    withSpillway = model.requests.splice(0);
    const first = withSpillway.find((q) => q.main)!;
    expect(first.tools).toEqual(
      expect.arrayContaining(["mcp_spillway_rescuer_fetch", "mcp_spillway_recall_result", "mcp_spillway_big_log", "mcp_spillway_digest"]),
    );
    expect(first.results).toEqual([]);
    expectPolicyOutcome(withSpillway, truth, { recallExact: true });
    expect(proxy.attempts).toEqual([]);
  });

  it("connect gemini-cli --remove gives the user's settings back byte for byte, comments included, and gemini mcp list has no spillway", async () => {
    const removed = await spillway(["connect", "gemini-cli", "--home", dirs.spillwayHome, "--remove"], env);
    expect(removed.code, removed.err).toBe(0);
    expect(readFileSync(settingsFile, "utf8")).toBe(userFile);
    const list = await run(GEMINI, ["mcp", "list"], { env, cwd: dirs.work });
    expect(list.code).toBe(0);
    expect(list.out + list.err).not.toContain("spillway");
  });

  it("the same policy without Spillway (the fixture configured in Gemini CLI directly) carries the whole log", async () => {
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...USER_SETTINGS, mcpServers: { fx: { ...fixtureUpstream(), timeout: 300000 } } }, null, 2),
    );
    const r = await prompt();
    expect(r.code, r.err.slice(-3000)).toBe(0);
    const without = model.requests.splice(0);
    const deliver = without.find((q) => q.action.type === "call" && q.action.step === "deliver")!;
    expect(deliver.results[0]!.parts).toContain(truth.log);
    expect(handleId(deliver.results[0]!.text)).toBeUndefined();
    console.log(
      promptTable("Gemini CLI 0.61.0 (scripted model via GOOGLE_GEMINI_BASE_URL), o200k tokens per request:", withSpillway, without),
    );
    expect(proxy.attempts).toEqual([]);
  });
});
