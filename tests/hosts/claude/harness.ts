/**
 * One Claude Code run of the scripted policy: a Spillway home whose upstream is the fixture MCP
 * server, `spillway serve` for the hooks (and for MCP over HTTP), the config `spillway connect
 * claude-code` prints installed as printed, and a second, direct MCP server that Spillway does not
 * proxy. Or the same policy without Spillway: the fixture server configured directly, no hooks.
 */
import { join } from "node:path";
import { parseConfig } from "../../../core/config/config";
import { createEngine, type Engine } from "../../../core/engine/engine";
import { memoryLogger } from "../../../core/runtime";
import { startModelServer, type LoggedRequest } from "../support/anthropicModel";
import { ROOT, claudeEnv, claudeHome, runClaude, writeUserSettings, type ClaudeHome, type ClaudeRun } from "../support/claudeCli";
import { connectOutput, startServe, type ServeProcess } from "../support/spillwayProcess";
import { tempHome } from "../../helpers/tempHome";
import { writeConfig } from "../../mcp/helpers/setup";
import { history, scripted, type Observed, type SidePolicy, type Step } from "./policy";
import { installPrinted, parsePrinted, printedToken, sh } from "./printedConfig";
import { writeProjectFiles } from "./projectFiles";

const FIXTURE = join(ROOT, "tests/mcp/fixtures/fixtureServer.ts");
const TSX = join(ROOT, "node_modules/tsx/dist/loader.mjs");
/** The fixture server as Claude Code itself starts it (its config has no cwd, so tsx by path). */
export const fixtureForClaude = { type: "stdio", command: process.execPath, args: ["--import", TSX, FIXTURE], alwaysLoad: true };

export interface HostRun {
  claude: ClaudeRun;
  requests: LoggedRequest[];
  /** The main conversation's calls and what the model got back, from the last request. */
  seen: Observed[];
  /** What `claude mcp get spillway` said after the printed add-json line. */
  mcpGet: string;
  spillwayHome: string;
  token: string;
  serve: ServeProcess | null;
  home: ClaudeHome;
  /** The environment Claude Code ran with (for a second run of the same session). */
  env: Record<string, string>;
  files: { log: string; notebook: string };
  close(): Promise<void>;
}

export interface RunSetup {
  /** "hooks": the hooks installed, Spillway's MCP server not (a user who skipped that step). */
  transport: "stdio" | "http" | "hooks" | "none";
  /** The policy's steps, given the server name the fixture's tools carry and the log file. */
  steps: (upstream: string, logFile: string) => Step[];
  /** Extra claude arguments (for a run without --dangerously-skip-permissions, see `bypass`). */
  args?: string[];
  bypass?: boolean;
  settings?: Record<string, unknown>;
  /** Ask `claude mcp get spillway` after installing (a few seconds: it starts the server). Default true. */
  checkConfig?: boolean;
  /** Answers for requests outside the main conversation (subagents, web search, WebFetch's summary). */
  side?: SidePolicy;
  /** Added to Spillway's config.json (beside the fixture upstream). */
  spillwayConfig?: Record<string, unknown>;
  /** Added to Claude Code's environment. */
  env?: Record<string, string>;
}

/** Runs Claude Code once; `close()` stops everything the run started and removes its folders. */
export async function hostRun(setup: RunSetup): Promise<HostRun> {
  const home = claudeHome();
  const spill = tempHome("spillway-host-");
  const files = writeProjectFiles(home.project);
  const upstream = setup.transport === "none" ? "fixture" : "spillway";
  const model = await startModelServer(scripted(setup.steps(upstream, files.log), setup.side));
  let serve: ServeProcess | null = null;
  const close = async () => {
    await model.close();
    await serve?.stop();
    home.cleanup();
    spill.cleanup();
  };
  try {
    let env = claudeEnv(home, model.url, setup.env);
    let mcpGet = "";
    let token = "";
    // The same server twice without Spillway too, so both runs offer the model the same tools but Spillway's own.
    await sh(`claude mcp add-json --scope user direct '${JSON.stringify(fixtureForClaude)}'`, env, home.project);
    if (setup.transport === "none") {
      await sh(`claude mcp add-json --scope user fixture '${JSON.stringify(fixtureForClaude)}'`, env, home.project);
      writeUserSettings(home, setup.settings ?? {});
    } else {
      writeConfig(spill.path, {
        ...setup.spillwayConfig,
        mcpServers: { fixture: { command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT } },
      });
      serve = await startServe(spill.path);
      const printed = parsePrinted(await connectOutput("claude-code", spill.path, serve.port));
      token = await printedToken(printed, env, home.project);
      env = { ...env, SPILLWAY_TOKEN: token };
      if (setup.transport === "hooks") writeUserSettings(home, { ...setup.settings, hooks: printed.hooks });
      else
        mcpGet = await installPrinted(home, env, printed, setup.transport, { settings: setup.settings, check: setup.checkConfig ?? true });
    }
    const bypass = setup.bypass ?? true;
    const claude = await runClaude({ home, env, prompt: "Work through the task.", args: setup.args, bypass });
    const last = model.requests.filter((r) => (r.body.tools ?? []).some((t) => t.name === "Bash")).at(-1);
    return {
      claude,
      requests: model.requests,
      seen: last ? history(last.body) : [],
      mcpGet,
      spillwayHome: spill.path,
      token,
      serve,
      home,
      env,
      files,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Runs Claude Code once, checks it exited cleanly, stops `spillway serve` and opens its store, to
 * read what was recorded; `close()` closes both.
 */
export async function hostRunThenStore(setup: RunSetup): Promise<{ r: HostRun; engine: Engine; close(): Promise<void> }> {
  const r = await hostRun(setup);
  if (r.claude.code !== 0) {
    await r.close();
    throw new Error(`claude exited with ${r.claude.code}: ${r.claude.stderr}`);
  }
  // The store is read once `spillway serve` has let go of it.
  await r.serve!.stop();
  const engine = createEngine({ home: r.spillwayHome, config: parseConfig({}), logger: memoryLogger() });
  return {
    r,
    engine,
    async close() {
      await engine.close();
      await r.close();
    },
  };
}
