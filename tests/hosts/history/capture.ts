/**
 * Captures the history each real agent CLI writes, for the importers' fixtures: runs the CLI once,
 * headless, against the host tests' scripted model with the fixture upstream configured directly
 * (no Spillway: the history a user would import), then copies the files the CLI wrote into
 * tests/fixtures/history/<agent>/ with the run's machine paths replaced by neutral ones.
 *
 *   node --import tsx tests/hosts/history/capture.ts [claude-code|codex|gemini-cli|opencode]…
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { hostRun } from "../claude/harness";
import { claudeSteps } from "../claude/steps";
import { chatAdapter } from "../models/chat";
import { geminiAdapter } from "../models/gemini";
import { baseEnv, blackholeProxy, fixtureUpstream, hostBin, hostDirs, run, ROOT, type HostDirs } from "../models/host";
import { responsesAdapter } from "../models/responses";
import { startModelServer, type WireAdapter } from "../models/server";
import { codexUserConfig } from "../codex/codexConfig";
import { GEMINI_USER_SETTINGS } from "../gemini/geminiSettings";
import { opencodeEnv, opencodeUserConfig, prepareConfigDir } from "../opencode/opencodeConfig";
import { captureAction } from "./capturePolicy";

const OUT = join(ROOT, "tests/fixtures/history");
/** Where the scrubbed paths point: a plain user's home and project. */
const HOME = "/home/dev";
const PROJECT = "/home/dev/project";

/** The replacements that take a run's machine out of its files, longest first. */
function scrubPairs(root: string, home: string, project: string): [string, string][] {
  const pairs: [string, string][] = [
    [project, PROJECT],
    [home, HOME],
    [root, `${HOME}/tmp`],
    [ROOT.replace(/\/$/, ""), "/opt/spillway"],
  ];
  // Agents also name folders after paths (Claude Code's project folders: every non-alphanumeric is "-").
  const slug = (p: string) => p.replace(/[^A-Za-z0-9]/g, "-");
  const paths = pairs.filter(([from]) => from.startsWith("/"));
  // …and store them relative to / (OpenCode's session path).
  return [
    ...pairs,
    ...paths.map(([a, b]): [string, string] => [slug(a), slug(b)]),
    ...paths.map(([a, b]): [string, string] => [a.slice(1), b.slice(1)]),
  ];
}

const scrub = (text: string, pairs: [string, string][]) => pairs.reduce((t, [from, to]) => t.split(from).join(to), text);

/** Copies `src` into `dest`, scrubbing file contents and names. */
function copyScrubbed(src: string, dest: string, pairs: [string, string][]): void {
  mkdirSync(dest, { recursive: true });
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    const to = join(dest, scrub(name, pairs));
    if (statSync(from).isDirectory()) copyScrubbed(from, to, pairs);
    else writeFileSync(to, scrub(readFileSync(from, "utf8"), pairs));
  }
}

/** A checkpointed copy of an SQLite file with every text column scrubbed. */
function copySqliteScrubbed(src: string, dest: string, pairs: [string, string][]): void {
  rmSync(dest, { force: true });
  mkdirSync(dirname(dest), { recursive: true });
  const db = new Database(src, { readonly: true });
  db.exec(`VACUUM INTO '${dest.replace(/'/g, "''")}'`);
  db.close();
  const out = new Database(dest);
  const tables = out.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
    name: string;
  }[];
  for (const { name } of tables) {
    const cols = out.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(name) as { name: string; type: string }[];
    for (const col of cols.filter((k) => /text/i.test(k.type))) {
      for (const [from, to] of pairs) out.prepare(`UPDATE "${name}" SET "${col.name}" = replace("${col.name}", ?, ?)`).run(from, to);
    }
  }
  out.exec("VACUUM");
  out.close();
}

async function captureClaude(): Promise<void> {
  const r = await hostRun({ transport: "none", steps: claudeSteps, checkConfig: false });
  try {
    if (r.claude.code !== 0) throw new Error(`claude exited ${r.claude.code}: ${r.claude.stderr.slice(-2000)}`);
    const dest = join(OUT, "claude-code", "projects");
    rmSync(dest, { recursive: true, force: true });
    const pairs = scrubPairs(r.home.root, r.home.home, r.home.project);
    const projects = join(r.home.configDir, "projects");
    for (const p of readdirSync(projects)) {
      // Only the transcripts and what they saved; the memory folder is Claude Code's own notes.
      const slugDest = join(dest, scrub(p, pairs));
      for (const name of readdirSync(join(projects, p)).filter((n) => n !== "memory")) {
        const from = join(projects, p, name);
        if (statSync(from).isDirectory()) copyScrubbed(from, join(slugDest, name), pairs);
        else {
          mkdirSync(slugDest, { recursive: true });
          writeFileSync(join(slugDest, name), scrub(readFileSync(from, "utf8"), pairs));
        }
      }
    }
  } finally {
    await r.close();
  }
}

interface OtherHost {
  adapter: WireAdapter;
  /** Writes the host's config and runs it once; returns its exit. */
  run(dirs: HostDirs, modelUrl: string, proxyUrl: string): Promise<{ code: number | null; err: string }>;
  /** Copies what the host wrote into `dest`. */
  collect(dirs: HostDirs, dest: string, pairs: [string, string][]): void;
}

const fx = () => fixtureUpstream();

const OTHERS: Record<string, OtherHost> = {
  codex: {
    adapter: responsesAdapter,
    run(dirs, modelUrl, proxyUrl) {
      const codexHome = join(dirs.home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      const u = fx();
      writeFileSync(
        join(codexHome, "config.toml"),
        [
          codexUserConfig(modelUrl, "gpt-5.5"),
          "[mcp_servers.fx]",
          `command = ${JSON.stringify(u.command)}`,
          `args = ${JSON.stringify(u.args)}`,
          `cwd = ${JSON.stringify(u.cwd)}`,
          "required = true",
          "startup_timeout_sec = 30",
          "",
        ].join("\n"),
      );
      const env = { ...baseEnv(dirs, proxyUrl), CODEX_HOME: codexHome, SCRIPTED_API_KEY: "scripted" };
      return run(
        hostBin("codex"),
        [
          "exec",
          "--json",
          "--skip-git-repo-check",
          "-c",
          'mcp_servers.fx.tools.big_log.approval_mode="approve"',
          "-c",
          'mcp_servers.fx.tools.run_tests.approval_mode="approve"',
          "Read the build logs and run the tests.",
        ],
        { env, cwd: dirs.work },
      );
    },
    collect: (dirs, dest, pairs) => copyScrubbed(join(dirs.home, ".codex", "sessions"), join(dest, "sessions"), pairs),
  },
  "gemini-cli": {
    adapter: geminiAdapter(["fx"]),
    run(dirs, modelUrl, proxyUrl) {
      mkdirSync(join(dirs.home, ".gemini"), { recursive: true });
      writeFileSync(
        join(dirs.home, ".gemini", "settings.json"),
        JSON.stringify({ ...GEMINI_USER_SETTINGS, mcpServers: { fx: { ...fx(), timeout: 300000 } } }, null, 2),
      );
      const env = {
        ...baseEnv(dirs, proxyUrl),
        GEMINI_API_KEY: "scripted",
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      };
      return run(
        hostBin("gemini"),
        ["-p", "Read the build logs and run the tests.", "--yolo", "--output-format", "json", "-m", "scripted-model"],
        { env, cwd: dirs.work },
      );
    },
    collect(dirs, dest, pairs) {
      copyScrubbed(join(dirs.home, ".gemini", "tmp"), join(dest, "tmp"), pairs);
      writeFileSync(join(dest, "projects.json"), scrub(readFileSync(join(dirs.home, ".gemini", "projects.json"), "utf8"), pairs));
    },
  },
  opencode: {
    adapter: chatAdapter(["fx"]),
    run(dirs, modelUrl, proxyUrl) {
      const configDir = join(dirs.home, ".config", "opencode");
      prepareConfigDir(configDir);
      const u = fx();
      writeFileSync(
        join(configDir, "opencode.json"),
        JSON.stringify(
          { ...opencodeUserConfig(modelUrl), mcp: { fx: { type: "local", command: [u.command, ...u.args], enabled: true } } },
          null,
          2,
        ),
      );
      return run(hostBin("opencode"), ["run", "--model", "scripted/scripted-model", "Read the build logs and run the tests."], {
        env: opencodeEnv(dirs, proxyUrl),
        cwd: dirs.work,
      });
    },
    collect(dirs, dest, pairs) {
      const data = join(dirs.home, ".local", "share", "opencode");
      copySqliteScrubbed(join(data, "opencode.db"), join(dest, "opencode.db"), pairs);
      if (existsSync(join(data, "tool-output"))) copyScrubbed(join(data, "tool-output"), join(dest, "tool-output"), pairs);
    },
  },
};

async function captureOther(agent: string, host: OtherHost): Promise<void> {
  const dirs = hostDirs(`spillway-hist-${agent}-`);
  // The project folder is the host's working folder; named like the Claude Code one for the scrub.
  const project = join(dirs.root, "project");
  renameSync(dirs.work, project);
  const d = { ...dirs, work: project };
  const [proxy, model] = await Promise.all([blackholeProxy(), startModelServer(host.adapter, "Reading build logs", captureAction)]);
  try {
    const r = await host.run(d, model.url, proxy.url);
    if (r.code !== 0) throw new Error(`${agent} exited ${r.code}: ${r.err.slice(-2000)}`);
    if (proxy.attempts.length) throw new Error(`${agent} tried the network: ${proxy.attempts.join(", ")}`);
    const dest = join(OUT, agent);
    rmSync(dest, { recursive: true, force: true });
    host.collect(d, dest, scrubPairs(d.root, d.home, project));
  } finally {
    await Promise.all([model.close(), proxy.close()]);
    dirs.cleanup();
  }
}

const wanted = process.argv.slice(2);
const agents = wanted.length ? wanted : ["claude-code", ...Object.keys(OTHERS)];
for (const agent of agents) {
  if (agent === "claude-code") await captureClaude();
  else if (OTHERS[agent]) await captureOther(agent, OTHERS[agent]);
  else throw new Error(`unknown agent ${agent}; known: claude-code, ${Object.keys(OTHERS).join(", ")}`);
  console.log(`captured ${agent} into ${join(OUT, agent)}`);
}
