/**
 * Codex CLI (checked with 0.171.0): `[mcp_servers.spillway]` in `$CODEX_HOME/config.toml`
 * (default `~/.codex/config.toml`); a project's `.codex/config.toml` is read only in a trusted project.
 */
import { join } from "node:path";
import type { Agent, ConnectContext } from "./agents";
import { shellArgs, upstreamsNote } from "./common";
import { removeTomlTable, setTomlTable, tomlString, type TomlEntry } from "./tomlTable";
import type { HostEnv } from "./write";

const TABLE = ["mcp_servers", "spillway"];

/** The keys of Spillway's table, in the order they are written. */
export function codexEntries(c: ConnectContext): TomlEntry[] {
  return [
    { key: "command", value: tomlString(c.command) },
    { key: "args", value: `[${c.args.map(tomlString).join(", ")}]` },
    // Codex 0.171 starts a turn without an optional server that is still starting; a required one is waited for.
    { key: "required", value: "true" },
    { key: "startup_timeout_sec", value: "30" },
    { key: "tool_timeout_sec", value: "300" },
  ];
}

/** `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`. */
export function codexConfigFile(host: HostEnv): string {
  return join(host.env.CODEX_HOME || join(host.homeDir, ".codex"), "config.toml");
}

export const codexAgent: Agent = {
  name: "codex",
  title: "OpenAI Codex CLI (~/.codex/config.toml)",
  snippet: (c) =>
    [
      "# Codex CLI 0.171: add this table to ~/.codex/config.toml ($CODEX_HOME/config.toml when set),",
      "# or run `spillway connect codex --write` to merge it there (the old file is kept as config.toml.bak-<time>).",
      "# `codex mcp add spillway -- " + shellArgs(c) + "` writes command and args only: no timeouts, no `required`.",
      "[mcp_servers.spillway]",
      ...codexEntries(c).map((e) => `${e.key} = ${e.value}`),
      "# required = true: Codex waits for Spillway before the first request; without it that request can go out",
      "# without Spillway's tools while `spillway mcp` is still starting. The price: if Spillway cannot start,",
      '# Codex stops with "required MCP servers failed to initialize" instead of running without it.',
      "# Check with `codex mcp list`. The model sees the tools as the mcp__spillway namespace (models whose Codex",
      "# metadata enables tool search, like gpt-5.5, load it with tool_search first). In `codex exec`, upstream tools",
      '# that are not read-only need approval: per tool, [mcp_servers.spillway.tools.<tool>] approval_mode = "approve".',
      `# ${upstreamsNote(c)}`,
    ].join("\n"),
  writeTarget: (c, host) => {
    const file = codexConfigFile(host);
    return {
      file,
      merge: (current) => setTomlTable(current ?? "", TABLE, codexEntries(c), file),
      remove: (current) => (current === undefined ? current : removeTomlTable(current, TABLE, file)),
      check: "codex mcp list",
    };
  },
};
