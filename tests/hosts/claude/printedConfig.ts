/**
 * The Claude Code config exactly as `spillway connect claude-code` prints it, applied as a user
 * would: the printed `claude mcp add-json` line run by a shell, the printed `export` line evaluated
 * for the token, the printed hooks block written to ~/.claude/settings.json.
 */
import { join } from "node:path";
import { CLAUDE_BIN, ROOT, runProcess, writeUserSettings, type ClaudeHome } from "../support/claudeCli";

export interface PrintedClaudeConfig {
  /** `claude mcp add-json --scope user spillway '…'` for stdio, then for HTTP. */
  addStdio: string;
  addHttp: string;
  exportToken: string;
  hooks: Record<string, unknown>;
}

export function parsePrinted(out: string): PrintedClaudeConfig {
  const lines = out.split("\n");
  const adds = lines.filter((l) => l.startsWith("claude mcp add-json --scope user spillway "));
  const exportToken = lines.find((l) => l.startsWith("export SPILLWAY_TOKEN="));
  const at = lines.findIndex((l, i) => l === "{" && lines[i + 1]?.startsWith('  "hooks"'));
  const end = lines.indexOf("}", at);
  if (adds.length !== 2 || !exportToken || at < 0 || end < 0) throw new Error(`unexpected connect output:\n${out}`);
  return { addStdio: adds[0]!, addHttp: adds[1]!, exportToken, hooks: JSON.parse(lines.slice(at, end + 1).join("\n")).hooks };
}

/** Runs a printed shell line with `claude` on the PATH, as the user's shell would. */
export async function sh(line: string, env: Record<string, string>, cwd: string): Promise<string> {
  const r = await runProcess("/bin/sh", ["-c", line], {
    cwd,
    env: { ...env, PATH: `${join(ROOT, "node_modules/.bin")}:${env.PATH}` },
    timeoutMs: 60_000,
  });
  if (r.code !== 0) throw new Error(`${line}\nexited ${r.code}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** The token the printed `export SPILLWAY_TOKEN=…` line sets. */
export async function printedToken(p: PrintedClaudeConfig, env: Record<string, string>, cwd: string): Promise<string> {
  return sh(`${p.exportToken}; printf %s "$SPILLWAY_TOKEN"`, env, cwd);
}

/**
 * Registers Spillway's MCP server over `transport` with the printed command and installs the printed
 * hooks (beside `settings`); answers what `claude mcp get spillway` then says, when `check`.
 */
export async function installPrinted(
  h: ClaudeHome,
  env: Record<string, string>,
  p: PrintedClaudeConfig,
  transport: "stdio" | "http",
  opts: { settings?: Record<string, unknown>; check?: boolean } = {},
): Promise<string> {
  await sh(transport === "stdio" ? p.addStdio : p.addHttp, env, h.project);
  writeUserSettings(h, { ...opts.settings, hooks: p.hooks });
  return opts.check === false ? "" : sh(`${CLAUDE_BIN} mcp get spillway`, env, h.project);
}
