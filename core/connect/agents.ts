/**
 * Ready-to-paste configuration for each agent, in that agent's own config format. Every agent
 * runs `spillway mcp` over stdio; Claude Code also gets the HTTP hooks (for its built-in tools),
 * Hermes gets the plugin shim.
 */
import { OWN_TOOL_NAMES } from "../vocabulary";
import { claudeCodeSnippet } from "./claudeCode";

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
  title: string;
  snippet(c: ConnectContext): string;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const shellArgs = (c: ConnectContext) => [c.command, ...c.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
const stdioEntry = (c: ConnectContext) => ({ command: c.command, args: c.args });
const tomlString = (s: string) => JSON.stringify(s);

const UPSTREAMS_NOTE = (c: ConnectContext) =>
  `Move the MCP servers you want Spillway to guard from this agent's config into ${c.configFile ?? `${c.home}/config.json`} under "mcpServers" (same shape); Spillway starts them and offers their tools.`;

export const AGENTS: Agent[] = [
  {
    name: "claude-code",
    title: "Claude Code (MCP server and HTTP hooks)",
    snippet: (c) => claudeCodeSnippet(c, UPSTREAMS_NOTE(c)),
  },
  {
    name: "codex",
    title: "OpenAI Codex CLI (~/.codex/config.toml)",
    snippet: (c) =>
      [
        `codex mcp add spillway -- ${shellArgs(c)}`,
        "# or add to ~/.codex/config.toml:",
        "[mcp_servers.spillway]",
        `command = ${tomlString(c.command)}`,
        `args = [${c.args.map(tomlString).join(", ")}]`,
        "startup_timeout_sec = 30",
        "tool_timeout_sec = 300",
        `# ${UPSTREAMS_NOTE(c)}`,
      ].join("\n"),
  },
  {
    name: "cursor",
    title: "Cursor (~/.cursor/mcp.json or .cursor/mcp.json)",
    snippet: (c) => [json({ mcpServers: { spillway: stdioEntry(c) } }), `// ${UPSTREAMS_NOTE(c)}`].join("\n"),
  },
  {
    name: "gemini-cli",
    title: "Gemini CLI (~/.gemini/settings.json)",
    snippet: (c) =>
      [
        `gemini mcp add spillway ${shellArgs(c)}`,
        "# or merge into ~/.gemini/settings.json:",
        json({ mcpServers: { spillway: { ...stdioEntry(c), timeout: 300000 } } }),
        `# ${UPSTREAMS_NOTE(c)}`,
      ].join("\n"),
  },
  {
    name: "opencode",
    title: "OpenCode (opencode.json)",
    snippet: (c) =>
      [
        `opencode mcp add spillway -- ${shellArgs(c)}`,
        "# or merge into opencode.json (OpenCode v2 nests the entry under \"mcp\": { \"servers\": { … } }):",
        json({ $schema: "https://opencode.ai/config.json", mcp: { spillway: { type: "local", command: [c.command, ...c.args], enabled: true } } }),
        `# ${UPSTREAMS_NOTE(c)}`,
      ].join("\n"),
  },
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
    snippet: (c) => [json({ mcpServers: { spillway: { ...stdioEntry(c), disabled: false, autoApprove: [...OWN_TOOL_NAMES] } } }), `// ${UPSTREAMS_NOTE(c)}`].join("\n"),
  },
  {
    name: "windsurf",
    title: "Windsurf (~/.codeium/windsurf/mcp_config.json)",
    snippet: (c) => [json({ mcpServers: { spillway: stdioEntry(c) } }), `// ${UPSTREAMS_NOTE(c)}`].join("\n"),
  },
];

export function findAgent(name: string): Agent | undefined {
  return AGENTS.find((a) => a.name === name.toLowerCase());
}
