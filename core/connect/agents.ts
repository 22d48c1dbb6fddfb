/**
 * Ready-to-paste configuration for each agent, in that agent's own config format. Every agent
 * runs `spillway mcp` over stdio; Claude Code also gets the HTTP hooks (for its built-in tools),
 * Hermes gets the plugin shim. Agents with a config file Spillway can merge into also say where
 * it is (`connect --write`).
 */
import { join } from "node:path";
import { OWN_TOOL_NAMES } from "../vocabulary";
import { claudeCodeSnippet } from "./claudeCode";
import { codexAgent } from "./codex";
import { json, stdioEntry, upstreamsNote } from "./common";
import { geminiAgent } from "./gemini";
import { removeJsonEntry, setJsonEntry } from "./jsonEntry";
import { opencodeAgent } from "./opencode";
import type { HostEnv, WriteTarget } from "./write";

export interface ConnectContext {
  /** The command and arguments that start `spillway mcp`. */
  command: string;
  args: string[];
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  home: string;
  /** The config file the endpoint runs with, when it is not `<home>/config.json`. */
  configFile?: string;
  tokenFile: string;
  /** Absolute path of integrations/hermes. */
  hermesPlugin: string;
}

export interface Agent {
  name: string;
  /** Other names `spillway connect` accepts for it (the agent's own command name), never listed. */
  aliases?: string[];
  title: string;
  snippet(c: ConnectContext): string;
  /** The file `spillway connect <agent> --write` merges into, for agents that have one. */
  writeTarget?(c: ConnectContext, host: HostEnv): WriteTarget;
}

const UPSTREAMS_NOTE = upstreamsNote;

export const AGENTS: Agent[] = [
  {
    name: "claude-code",
    title: "Claude Code (MCP server and HTTP hooks)",
    snippet: (c) => claudeCodeSnippet(c, UPSTREAMS_NOTE(c)),
  },
  codexAgent,
  {
    name: "cursor",
    title: "Cursor (~/.cursor/mcp.json or .cursor/mcp.json)",
    snippet: (c) =>
      [
        json({ mcpServers: { spillway: stdioEntry(c) } }),
        `// ${UPSTREAMS_NOTE(c)}`,
        "// `spillway connect cursor --write` merges it into ~/.cursor/mcp.json (not checked against a Cursor binary).",
      ].join("\n"),
    writeTarget: (c, host) => {
      const file = join(host.homeDir, ".cursor", "mcp.json");
      return {
        file,
        merge: (current) => setJsonEntry(current, ["mcpServers", "spillway"], stdioEntry(c), file),
        remove: (current) => removeJsonEntry(current, ["mcpServers", "spillway"], file),
        check: "Cursor Settings > MCP",
      };
    },
  },
  geminiAgent,
  opencodeAgent,
  {
    name: "hermes",
    title: "Hermes Agent (plugin shim)",
    snippet: (c) =>
      [
        "# The plugin guards every Hermes tool, built-in and MCP (keep your MCP servers in ~/.hermes/config.yaml),",
        "# through `spillway serve`, and adds the rescuer_fetch and recall_result tools.",
        `cp -r ${c.hermesPlugin} ~/.hermes/plugins/spillway`,
        "hermes plugins enable spillway",
        `# Keep \`spillway serve\` running. The plugin reads the token from ${c.tokenFile};`,
        `# set SPILLWAY_URL (default ${c.baseUrl}) or SPILLWAY_HOME if yours differ. Without a running serve it changes nothing.`,
      ].join("\n"),
  },
  {
    name: "cline",
    title: "Cline (cline_mcp_settings.json, via MCP Servers > Configure)",
    snippet: (c) =>
      [
        json({ mcpServers: { spillway: { ...stdioEntry(c), disabled: false, autoApprove: [...OWN_TOOL_NAMES] } } }),
        `// ${UPSTREAMS_NOTE(c)}`,
      ].join("\n"),
  },
  {
    name: "windsurf",
    title: "Windsurf (~/.codeium/windsurf/mcp_config.json)",
    snippet: (c) => [json({ mcpServers: { spillway: stdioEntry(c) } }), `// ${UPSTREAMS_NOTE(c)}`].join("\n"),
  },
];

export function findAgent(name: string): Agent | undefined {
  const n = name.toLowerCase();
  return AGENTS.find((a) => a.name === n || a.aliases?.includes(n));
}
