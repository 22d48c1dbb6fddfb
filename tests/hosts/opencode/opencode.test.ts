/**
 * OpenCode 1.18.33 (`opencode run`, headless) against a scripted OpenAI-compatible chat
 * completions model (an `@ai-sdk/openai-compatible` provider), with `spillway mcp` configured
 * exactly as `spillway connect opencode --write` puts it in ~/.config/opencode/opencode.json,
 * in front of the fixture upstream. Asserts what the model received, request by request.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatAdapter } from "../models/chat";
import { expectPolicyOutcome } from "../models/expectations";
import {
  blackholeProxy,
  fixtureUpstream,
  groundTruth,
  handWrittenJsonc,
  hostBin,
  keepsLines,
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
import { opencodeEnv, opencodeUserConfig as userConfig, prepareConfigDir } from "./opencodeConfig";

const OPENCODE = hostBin("opencode");
/** Terminal colour codes, which `opencode mcp list` prints even with NO_COLOR. */
const COLOR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

describe("OpenCode 1.18.33 with spillway mcp", { timeout: 180_000 }, () => {
  let dirs: HostDirs;
  let proxy: Blackhole;
  let model: ModelServer;
  let truth: GroundTruth;
  let env: Record<string, string | undefined>;
  let configDir: string;
  let printedEntry: Record<string, unknown>;
  let userFile: string;

  beforeAll(async () => {
    dirs = hostDirs("spillway-opencode-");
    [proxy, model, truth] = await Promise.all([blackholeProxy(), startModelServer(chatAdapter(["spillway", "fx"])), groundTruth()]);
    configDir = join(dirs.home, ".config", "opencode");
    env = opencodeEnv(dirs, proxy.url);
  });
  afterAll(async () => {
    await Promise.all([model?.close(), proxy?.close()]);
    dirs?.cleanup();
  });

  const prompt = () => run(OPENCODE, ["run", "--model", "scripted/scripted-model", "Follow the scripted policy."], { env, cwd: dirs.work });

  it("connect opencode --write merges the printed flat mcp.spillway entry into the global config, and opencode mcp list connects to it", async () => {
    prepareConfigDir(configDir);
    // Comments and a trailing comma, as OpenCode reads its config: kept byte for byte.
    const before = handWrittenJsonc(userConfig(model.url), true);
    writeFileSync(join(configDir, "opencode.json"), before);
    userFile = before;

    const printed = await spillway(["connect", "opencode", "--home", dirs.spillwayHome], env);
    expect(printed.code).toBe(0);
    const block = printed.out.slice(printed.out.indexOf("{"), printed.out.indexOf("\n}\n") + 2);
    printedEntry = JSON.parse(block).mcp.spillway;
    expect(printedEntry).toEqual({ type: "local", command: expect.any(Array), enabled: true });
    expect((printedEntry.command as string[]).slice(-3)).toEqual(["mcp", "--home", dirs.spillwayHome]);

    const wrote = await spillway(["connect", "opencode", "--home", dirs.spillwayHome, "--write"], env);
    expect(wrote.code).toBe(0);
    const after = readFileSync(join(configDir, "opencode.json"), "utf8");
    expect(keepsLines(before, after)).toBe(true);
    expect(after).toContain(`"mcp": {\n    "spillway": ${JSON.stringify(printedEntry, null, 2).replaceAll("\n", "\n    ")}\n  },`);
    const backups = readdirSync(configDir).filter((f) => f.startsWith("opencode.json.bak-"));
    expect(backups.map((f) => readFileSync(join(configDir, f), "utf8"))).toEqual([before]);

    const list = await run(OPENCODE, ["mcp", "list"], { env, cwd: dirs.work });
    expect(list.code).toBe(0);
    const text = (list.out + list.err).replace(COLOR, "");
    expect(text).toMatch(/✓ spillway\s+connected/);
    expect(text).toContain((printedEntry.command as string[]).join(" "));
    expect(proxy.attempts).toEqual([]);
  });

  let withSpillway: LoggedRequest[];
  it("the model has Spillway's tools on the first request and gets handle, fetch, stub, exact recall and exact spill: delivery", async () => {
    const r = await prompt();
    expect(r.code, (r.out + r.err).slice(-3000)).toBe(0);
    withSpillway = model.requests.splice(0);
    const first = withSpillway.find((q) => q.main)!;
    expect(first.tools).toEqual(
      expect.arrayContaining(["spillway_rescuer_fetch", "spillway_recall_result", "spillway_big_log", "spillway_digest"]),
    );
    expect(first.results).toEqual([]);
    expectPolicyOutcome(withSpillway, truth, { recallExact: true });
    expect(proxy.attempts).toEqual([]);
    // The provider package resolved without an install: nothing was fetched into OpenCode's cache.
    expect(existsSync(join(dirs.home, ".cache", "opencode", "node_modules", "@ai-sdk", "openai-compatible"))).toBe(false);
  });

  it("connect opencode --remove gives the user's config back byte for byte, comments included, and opencode mcp list has no spillway", async () => {
    const removed = await spillway(["connect", "opencode", "--home", dirs.spillwayHome, "--remove"], env);
    expect(removed.code, removed.err).toBe(0);
    expect(readFileSync(join(configDir, "opencode.json"), "utf8")).toBe(userFile);
    const list = await run(OPENCODE, ["mcp", "list"], { env, cwd: dirs.work });
    expect(list.code).toBe(0);
    expect(list.out + list.err).not.toContain("spillway");
  });

  it("the same policy without Spillway (the fixture configured in OpenCode directly) carries the whole log", async () => {
    const fx = fixtureUpstream();
    writeFileSync(
      join(configDir, "opencode.json"),
      JSON.stringify(
        { ...userConfig(model.url), mcp: { fx: { type: "local", command: [fx.command, ...fx.args], enabled: true } } },
        null,
        2,
      ),
    );
    const r = await prompt();
    expect(r.code, (r.out + r.err).slice(-3000)).toBe(0);
    const without = model.requests.splice(0);
    const deliver = without.find((q) => q.action.type === "call" && q.action.step === "deliver")!;
    expect(deliver.results[0]!.parts).toContain(truth.log);
    expect(handleId(deliver.results[0]!.text)).toBeUndefined();
    console.log(
      promptTable("OpenCode 1.18.33 (scripted model via @ai-sdk/openai-compatible), o200k tokens per request:", withSpillway, without),
    );
    expect(proxy.attempts).toEqual([]);
  });
});
