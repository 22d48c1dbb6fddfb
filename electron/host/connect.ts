/**
 * Agent config for the desktop app, built on core's `spillway connect` snippets
 * (core/connect/agents.ts). The tray's "Copy Claude Code config" leads with the HTTP form,
 * because the app's endpoint is already running; the token is read by the user's shell from the
 * 0600 file, so it never lands on the clipboard.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { AGENTS, findAgent, type ConnectContext } from "../../core/connect/agents";
import { tokenPath } from "../../core/http/token";
import type { ConnectSnippet } from "../../core/inspector/api/dto";

/**
 * The context the snippets are written for. `appRoot` holds bin/spillway.js when the app runs
 * from a checkout (`npm start`); agents spawn `spillway mcp` from there with the system's node.
 */
export function desktopConnectContext(opts: { appRoot: string; home: string; port: number }): ConnectContext {
  const args = [join(opts.appRoot, "bin", "spillway.js"), "mcp"];
  if (opts.home !== join(homedir(), ".spillway")) args.push("--home", opts.home);
  return {
    command: "node",
    args,
    baseUrl: `http://127.0.0.1:${opts.port}`,
    home: opts.home,
    tokenFile: tokenPath(opts.home),
    hermesPlugin: join(opts.appRoot, "integrations", "hermes"),
  };
}

/** What "Copy Claude Code config" puts on the clipboard for a running endpoint. */
export function claudeCodeConfig(mcpUrl: string, ctx: ConnectContext): string {
  const stdio = findAgent("claude-code")?.snippet(ctx) ?? "";
  return [
    "# Spillway's MCP endpoint is running in the desktop app. Connect Claude Code to it over HTTP:",
    `export SPILLWAY_TOKEN="$(cat ${ctx.tokenFile})"`,
    `claude mcp add --scope user --transport http spillway ${mcpUrl} --header "Authorization: Bearer $SPILLWAY_TOKEN"`,
    "",
    "# Or let Claude Code start Spillway itself over stdio, and add the hooks:",
    stdio,
  ].join("\n");
}

/** Every agent's snippet, for the inspector's Endpoint view. */
export function connectSnippets(ctx: ConnectContext): ConnectSnippet[] {
  return AGENTS.map((a) => ({ agent: a.name, title: a.title, target: "", format: "text", text: a.snippet(ctx) }));
}
