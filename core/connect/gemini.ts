/**
 * Gemini CLI (checked with 0.61.0): `mcpServers.spillway` in the user settings
 * `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/settings.json` when set), or in a project's
 * `.gemini/settings.json`, which is where `gemini mcp add` writes unless given `-s user`.
 */
import { join } from "node:path";
import type { Agent, ConnectContext } from "./agents";
import { json, shellArgs, stdioEntry, upstreamsNote } from "./common";
import { removeJsonEntry, setJsonEntry } from "./jsonEntry";
import type { HostEnv } from "./write";

/** Bounds every request to Spillway, tool calls included (Gemini's default is 600000). */
const TIMEOUT_MS = 300_000;

export function geminiEntry(c: ConnectContext): { command: string; args: string[]; timeout: number } {
  return { ...stdioEntry(c), timeout: TIMEOUT_MS };
}

/** The user-level settings file Gemini CLI reads in every (trusted) folder. */
export function geminiSettingsFile(host: HostEnv): string {
  return join(host.env.GEMINI_CLI_HOME || host.homeDir, ".gemini", "settings.json");
}

export const geminiAgent: Agent = {
  name: "gemini-cli",
  // The CLI's own command name.
  aliases: ["gemini"],
  title: "Gemini CLI (~/.gemini/settings.json)",
  snippet: (c) =>
    [
      "# Gemini CLI 0.61: merge into ~/.gemini/settings.json (user level, every folder), or run",
      "# `spillway connect gemini-cli --write` to do it (the old file is kept as settings.json.bak-<time>):",
      json({ mcpServers: { spillway: geminiEntry(c) } }),
      `# Or: gemini mcp add -s user --timeout ${TIMEOUT_MS} spillway ${shellArgs(c)}`,
      "#   (without -s user, `gemini mcp add` writes .gemini/settings.json in the current folder: that project only;",
      "#   without --timeout the entry gets Gemini's default of 10 minutes per request).",
      "# Gemini CLI runs no MCP server, user-level ones included, in a folder it does not trust: trust the folder",
      "# when asked (or in ~/.gemini/trustedFolders.json); headless runs can set GEMINI_CLI_TRUST_WORKSPACE=true.",
      "# Check with `gemini mcp list` in that folder. The model sees the tools as mcp_spillway_<tool>.",
      `# ${upstreamsNote(c)}`,
    ].join("\n"),
  writeTarget: (c, host) => {
    const file = geminiSettingsFile(host);
    return {
      file,
      merge: (current) => setJsonEntry(current, ["mcpServers", "spillway"], geminiEntry(c), file),
      remove: (current) => removeJsonEntry(current, ["mcpServers", "spillway"], file),
      check: "gemini mcp list",
    };
  },
};
