/**
 * Runs the real Claude Code CLI (node_modules/.bin/claude) headless and hermetic: a temp HOME and
 * CLAUDE_CONFIG_DIR, the scripted model at ANTHROPIC_BASE_URL, no telemetry, updates or other
 * network extras. As root, --dangerously-skip-permissions needs IS_SANDBOX=1.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const CLAUDE_BIN = join(ROOT, "node_modules/.bin/claude");
/** The version these tests verify (the devDependency). */
export const CLAUDE_VERSION: string = JSON.parse(
  readFileSync(join(ROOT, "node_modules/@anthropic-ai/claude-code/package.json"), "utf8"),
).version;

/** A throwaway user for one Claude Code run: its home, config folder and project folder. */
export interface ClaudeHome {
  root: string;
  home: string;
  configDir: string;
  project: string;
  cleanup(): void;
}

export function claudeHome(prefix = "spillway-cc-"): ClaudeHome {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, "home");
  const configDir = join(home, ".claude");
  const project = join(root, "project");
  mkdirSync(configDir, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, configDir, project, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The user settings file (~/.claude/settings.json), where `connect` says the hooks go. */
export function writeUserSettings(h: ClaudeHome, settings: Record<string, unknown>): void {
  writeFileSync(join(h.configDir, "settings.json"), JSON.stringify(settings, null, 2));
}

/** The environment of a hermetic run; `extra` adds to it (SPILLWAY_TOKEN, MCP_CONNECTION_NONBLOCKING…). */
export function claudeEnv(h: ClaudeHome, modelUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: h.home,
    CLAUDE_CONFIG_DIR: h.configDir,
    TMPDIR: h.root,
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: "sk-ant-scripted-model",
    IS_SANDBOX: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ...extra,
  };
}

export interface ClaudeRun {
  code: number | null;
  /** The stream-json events, parsed. */
  events: Record<string, any>[];
  stderr: string;
  /** The `system/init` event: tools, MCP servers and their status. */
  init: Record<string, any> | undefined;
  result: Record<string, any> | undefined;
}

export interface RunOptions {
  home: ClaudeHome;
  env: Record<string, string>;
  prompt: string;
  args?: string[];
  /** --dangerously-skip-permissions (the default); false runs with Claude Code's own permission checks. */
  bypass?: boolean;
  /** The run is killed (with its MCP servers) after this long. */
  timeoutMs?: number;
}

/** Spawns a program in its own process group; the group is killed if it outlives `timeoutMs`. */
export function runProcess(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, opts.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      // Servers the CLI spawned and did not reap (it exits without waiting for them).
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // none left
      }
      resolve({ code, stdout, stderr });
    });
  });
}

/** `claude -p <prompt> --output-format stream-json --verbose [--dangerously-skip-permissions] …` in the project folder. */
export async function runClaude(o: RunOptions): Promise<ClaudeRun> {
  const args = [
    "-p",
    o.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    ...(o.bypass === false ? [] : ["--dangerously-skip-permissions"]),
    ...(o.args ?? []),
  ];
  const r = await runProcess(CLAUDE_BIN, args, { cwd: o.home.project, env: o.env, timeoutMs: o.timeoutMs ?? 90_000 });
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, any>);
  return {
    code: r.code,
    events,
    stderr: r.stderr,
    init: events.find((e) => e.type === "system" && e.subtype === "init"),
    result: events.find((e) => e.type === "result"),
  };
}
