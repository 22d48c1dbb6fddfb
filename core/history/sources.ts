/** Where each agent keeps its history, and which files under a folder are its session files. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { OPENCODE_DB_FILE } from "../store/foreign/opencodeDb";
import { ErrorCode, SpillwayError } from "../errors";
import { HISTORY_AGENTS, type HistoryAgent } from "../vocabulary";
import { readClaudeCode } from "./claudeCode";
import { readCodex } from "./codex";
import { readGemini } from "./gemini";
import { readOpencode } from "./opencode";
import type { SessionReader } from "./types";

export interface AgentSource {
  name: string;
  /** The agent's history folder for this environment (its own variables first). */
  defaultPath(env: NodeJS.ProcessEnv): string;
  /** Whether a file under that folder is one of its session files. */
  isSessionFile(relPath: string): boolean;
  read: SessionReader;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();

export const AGENT_SOURCES: Record<HistoryAgent, AgentSource> = {
  "claude-code": {
    name: "Claude Code",
    defaultPath: (env) => join(env.CLAUDE_CONFIG_DIR || join(home(env), ".claude"), "projects"),
    // Transcripts sit one level down; a session's own folder holds saved results and subagents.
    isSessionFile: (rel) => rel.endsWith(".jsonl") && !/(^|\/)(tool-results|subagents)\//.test(rel),
    read: readClaudeCode,
  },
  codex: {
    name: "Codex",
    defaultPath: (env) => join(env.CODEX_HOME || join(home(env), ".codex"), "sessions"),
    isSessionFile: (rel) => /(^|\/)rollout-[^/]*\.jsonl$/.test(rel),
    read: readCodex,
  },
  "gemini-cli": {
    name: "Gemini CLI",
    defaultPath: (env) => join(env.GEMINI_CLI_HOME ? join(env.GEMINI_CLI_HOME, ".gemini") : join(home(env), ".gemini"), "tmp"),
    isSessionFile: (rel) => /(^|\/)chats\/session-[^/]*\.jsonl?$/.test(rel),
    read: readGemini,
  },
  opencode: {
    name: "OpenCode",
    defaultPath: (env) => join(env.XDG_DATA_HOME || join(home(env), ".local", "share"), "opencode"),
    isSessionFile: (rel) => basename(rel) === OPENCODE_DB_FILE,
    read: readOpencode,
  },
};

/** The agent named by a CLI or inspector argument (a few spellings accepted). */
export function parseAgent(name: string): HistoryAgent {
  const n = name.toLowerCase().replace(/[\s_]/g, "-");
  const alias: Record<string, HistoryAgent> = { claude: "claude-code", gemini: "gemini-cli" };
  const agent = (alias[n] ?? n) as HistoryAgent;
  if (!HISTORY_AGENTS.includes(agent)) {
    throw new SpillwayError(
      ErrorCode.BadArgument,
      `"${name}" is not an agent whose history Spillway reads: use one of ${HISTORY_AGENTS.join(", ")}.`,
      { path: "agent" },
    );
  }
  return agent;
}

/** The session files of `agent` at `path` (a folder, walked, or one file), in a stable order, with their sizes. */
export function listSessionFiles(agent: HistoryAgent, path: string): { file: string; bytes: number }[] {
  const src = AGENT_SOURCES[agent];
  if (!existsSync(path)) throw new SpillwayError(ErrorCode.NotFound, `no ${src.name} history at ${path}`, { path: "path" });
  const st = statSync(path);
  if (st.isFile()) return [{ file: path, bytes: st.size }];
  const out: { file: string; bytes: number }[] = [];
  const walk = (dir: string, rel: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(join(dir, d.name), r);
      else if (d.isFile() && src.isSessionFile(r)) out.push({ file: join(dir, d.name), bytes: statSync(join(dir, d.name)).size });
    }
  };
  walk(path, "");
  return out;
}
