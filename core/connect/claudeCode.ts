/**
 * What `spillway connect claude-code` prints, checked against Claude Code 2.1.197 by
 * tests/hosts/claude/: the MCP server (stdio, or HTTP to `spillway serve`) as `claude mcp add-json`
 * reads it, and the HTTP hooks block for ~/.claude/settings.json.
 */
import type { ConnectContext } from "./agents";

/** The Claude Code version the printed config was verified with. */
export const CLAUDE_CODE_VERIFIED = "2.1.197";

const json = (v: unknown) => JSON.stringify(v, null, 2);
const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * alwaysLoad: Claude Code waits for this server before its first request and never defers its
 * tools behind tool search. Without it `claude -p` sends the first request while MCP servers are
 * still connecting, and the model never sees rescuer_fetch.
 */
function stdioServer(c: ConnectContext) {
  return { type: "stdio", command: c.command, args: c.args, alwaysLoad: true };
}

function httpServer(c: ConnectContext) {
  // .mcp.json header values expand ${VAR} (not $VAR) from Claude Code's environment.
  return { type: "http", url: `${c.baseUrl}/mcp`, headers: { Authorization: "Bearer ${SPILLWAY_TOKEN}" }, alwaysLoad: true };
}

/** The hooks block, one line per event so the six near-identical entries stay readable. */
function hooksBlock(c: ConnectContext): string {
  const hook = JSON.stringify({
    type: "http",
    url: `${c.baseUrl}/hooks/claude-code`,
    // HTTP hooks expand $VAR or ${VAR}, and only the variables listed in allowedEnvVars.
    headers: { Authorization: "Bearer $SPILLWAY_TOKEN" },
    allowedEnvVars: ["SPILLWAY_TOKEN"],
    // Claude Code waits this long (s) on an answer, then goes on with the raw result. A stopped or
    // hung serve costs a tool call two waits (PreToolUse and PostToolUse); Spillway answers in
    // milliseconds, a 5 MB result in under a second, and waits at most 10 s for the store's lock.
    timeout: 10,
  });
  const events: [string, string | null][] = [
    ["PreToolUse", "*"],
    ["PostToolUse", "*"],
    // A failed tool call reaches no PostToolUse hook: without this one it would leave no trace.
    ["PostToolUseFailure", "*"],
    ["PreCompact", null],
    ["SessionStart", "compact"],
    ["UserPromptSubmit", null],
  ];
  const lines = events.map(
    ([event, matcher]) =>
      `    ${JSON.stringify(event)}: [{ ${matcher ? `"matcher": ${JSON.stringify(matcher)}, ` : ""}"hooks": [${hook}] }]`,
  );
  return ["{", '  "hooks": {', lines.join(",\n"), "  }", "}"].join("\n");
}

/** The whole snippet. `upstreamsNote` is the shared line about moving MCP servers behind Spillway. */
export function claudeCodeSnippet(c: ConnectContext, upstreamsNote: string): string {
  const add = (entry: unknown) => `claude mcp add-json --scope user spillway ${shellQuote(JSON.stringify(entry))}`;
  return [
    `# Claude Code (verified with ${CLAUDE_CODE_VERIFIED}).`,
    "# 1. The MCP server: rescuer_fetch, recall_result and your proxied servers. Over stdio (Claude Code starts it",
    "#    per session and passes its session id, so handles from the hooks can be fetched):",
    add(stdioServer(c)),
    "#    or, in a project's .mcp.json:",
    json({ mcpServers: { spillway: stdioServer(c) } }),
    "#    or over HTTP to the running `spillway serve` (SPILLWAY_TOKEN exported as in 2; with the hooks installed,",
    "#    its MCP session joins the Claude Code session that calls it):",
    add(httpServer(c)),
    '#    Keep the name "spillway": the hooks leave mcp__spillway__* calls to the proxy. "alwaysLoad" makes Claude Code',
    "#    wait for Spillway's tools before its first request (`claude -p` connects other servers in the background;",
    "#    MCP_CONNECTION_NONBLOCKING=0 makes it wait for every server).",
    `# ${upstreamsNote}`,
    "",
    "# 2. The hooks, so built-in tools (Bash, Read, Grep, Glob, WebFetch, WebSearch, Agent…) are guarded too. Keep",
    "#    `spillway serve` running, export the token in the shell that starts claude:",
    `export SPILLWAY_TOKEN="$(cat ${shellQuote(c.tokenFile)})"`,
    "#    and merge into ~/.claude/settings.json:",
    hooksBlock(c),
    "# PostToolUse answers in each tool's own output shape (Claude Code rejects any other). PreToolUse expands spill:<id>",
    "# without a permission decision, so your permission rules and prompts apply to the expanded call as before.",
  ].join("\n");
}
