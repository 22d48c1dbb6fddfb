/**
 * A long agent session through the MCP endpoint (40 upstream calls: listings, file reads rescued
 * and repeated, file info, a missing file, spill: into a tool, a build log, fetches between them), and a Claude
 * Code session through the hook route (prompts, a large Bash output, one compaction signalled twice,
 * a failed command).
 */
import { join } from "node:path";
import { httpClient, idIn, stdioClient, textOf } from "../../mcp/helpers/setup";

export const LONG_CALLS = 40;
export const HOOK_SESSION = "7d0c2a9e-hook-4e1b-9c55-claude0e2e01";
export const HOOK_PROMPT = "Why did the nightly batch fail? Check the build log.";
export const HOOK_FAILURE = "Exit code 2\nmake: *** [deploy] Error 2";

const FILES = [
  "nightly-batch.log",
  "orders-page.json",
  "events.ndjson",
  "catalog.xml",
  "status-page.html",
  "rate_limiter.py",
  "sessionStore.ts",
  "harbor-sync-README.md",
];

/** Returns the session's id and the id of the one result only it produced (a build log). */
export async function generateLongSession(url: string, token: string, dir: string): Promise<{ session: string; buildLog: string }> {
  const g = await httpClient(`${url}/mcp`, token, "e2e-agent-gamma");
  let calls = 0;
  const tool = async (name: string, args: Record<string, unknown>) => {
    calls++;
    return textOf(await g.client.callTool({ name, arguments: args }));
  };
  const fetch = (id: string, mode: string, args: Record<string, unknown> = {}) =>
    g.client.callTool({ name: "rescuer_fetch", arguments: { id, mode, ...args } });
  await tool("list_allowed_directories", {});
  await tool("list_directory", { path: dir });
  const ids: string[] = [];
  for (const f of FILES) {
    const text = await tool("read_text_file", { path: join(dir, f) });
    if (text.startsWith("[spillway:")) ids.push(idIn(text));
    await tool("get_file_info", { path: join(dir, f) });
  }
  for (const id of ids.slice(0, 4)) await fetch(id, "outline");
  await fetch(ids[0]!, "grep", { pattern: "ERROR|FAIL" });
  for (const f of FILES.slice(0, 4)) await tool("read_text_file", { path: join(dir, f) });
  await tool("read_text_file", { path: join(dir, "no-such-file.txt") });
  await tool("digest", { text: `spill:${ids[1]}` });
  await tool("search_files", { path: dir, pattern: "*.log" });
  const buildLog = idIn(await tool("big_log", { lines: 3_000, seed: "gamma" }));
  await fetch(buildLog, "grep", { pattern: "ERROR step 13:" });
  // The rest of the 40: listings and file info, alternating.
  for (let i = calls; i < LONG_CALLS; i++)
    await tool(i % 2 ? "list_directory" : "get_file_info", { path: i % 2 ? dir : join(dir, FILES[i % FILES.length]!) });
  const session = g.transport.sessionId!;
  await g.client.close();
  return { session, buildLog };
}

export async function generateHookSession(url: string, token: string, log: string, home: string): Promise<void> {
  // The stdio server Claude Code starts for the session (it passes the session id), which lists its
  // tools and runs as long as the session: without it the hooks would deliver every result whole.
  const mcp = await stdioClient(home, { CLAUDE_CODE_SESSION_ID: HOOK_SESSION });
  await mcp.listTools();
  try {
    await hookCalls(url, token, log);
  } finally {
    await mcp.close();
  }
}

async function hookCalls(url: string, token: string, log: string): Promise<void> {
  const hook = async (body: Record<string, unknown>) => {
    const r = await fetch(`${url}/hooks/claude-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ session_id: HOOK_SESSION, transcript_path: "/tmp/e2e-transcript.jsonl", cwd: "/tmp", ...body }),
    });
    if (!r.ok) throw new Error(`hook ${String(body.hook_event_name)}: ${r.status}`);
  };
  await hook({ hook_event_name: "SessionStart", source: "startup" });
  await hook({ hook_event_name: "UserPromptSubmit", prompt: HOOK_PROMPT });
  await hook({
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat build.log" },
    tool_response: { stdout: log, stderr: "", interrupted: false, isImage: false },
    duration_ms: 842,
  });
  await hook({ hook_event_name: "PreCompact", trigger: "auto" });
  await hook({ hook_event_name: "SessionStart", source: "compact" });
  await hook({ hook_event_name: "UserPromptSubmit", prompt: "Now summarise the failures." });
  await hook({
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat build.log" },
    tool_response: { stdout: log, stderr: "", interrupted: false, isImage: false },
    duration_ms: 611,
  });
  // A command that fails reaches Claude Code's PostToolUseFailure hook, not PostToolUse.
  await hook({
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "make deploy" },
    tool_use_id: "toolu_e2e_fail01",
    error: HOOK_FAILURE,
    is_interrupt: false,
    duration_ms: 1_204,
  });
}
