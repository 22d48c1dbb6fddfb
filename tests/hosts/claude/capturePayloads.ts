/**
 * Regenerates tests/fixtures/claude-code/: the hook payloads the real Claude Code sends when a
 * scripted model makes it call each built-in tool (and two MCP tools), captured by an HTTP hook
 * that changes nothing, then scrubbed of temp paths and ids. Run it after bumping Claude Code:
 *
 *   node --import tsx tests/hosts/claude/capturePayloads.ts
 *
 * WebFetch upgrades http to https, so the page is served over TLS with a throwaway certificate
 * (needs `openssl`), and the preflight domain check is off (`skipWebFetchPreflight`).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startModelServer, toolCallsSoFar, type MessagesRequest, type Reply } from "../support/anthropicModel";
import { CLAUDE_VERSION, ROOT, claudeEnv, claudeHome, runClaude, writeUserSettings } from "../support/claudeCli";
import { seqOutput, writeProjectFiles } from "./projectFiles";
import { bigLog } from "./steps";
import { startTlsPage } from "./tlsPage";

const OUT = join(ROOT, "tests/fixtures/claude-code");
const FIXTURE_SERVER = join(ROOT, "tests/mcp/fixtures/fixtureServer.ts");
const TSX = join(ROOT, "node_modules/tsx/dist/loader.mjs");

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return (s.address() as AddressInfo).port;
};

const h = claudeHome("spillway-capture-");
const files = writeProjectFiles(h.project);
const page = await startTlsPage(
  h.root,
  `<html><head><title>Release notes</title></head><body><h1>Release notes</h1>${"<p>Fixed a crash in the scheduler.</p>".repeat(40)}</body></html>`,
);
if (!page) throw new Error("capturing WebFetch needs openssl");
const pageUrl = page.url;

const steps: [name: string, tool: string, input: Record<string, unknown>][] = [
  ["bash", "Bash", { command: "echo out; echo err >&2", description: "Print to both streams" }],
  ["bash-persisted", "Bash", { command: "seq 1 40000", description: "A long output" }],
  ["read-text", "Read", { file_path: files.log }],
  ["read-notebook", "Read", { file_path: files.notebook }],
  ["grep-content", "Grep", { pattern: "TODO", path: h.project, output_mode: "content", "-n": true }],
  ["grep-files", "Grep", { pattern: "TODO", path: h.project }],
  ["grep-count", "Grep", { pattern: "TODO", path: h.project, output_mode: "count" }],
  ["glob", "Glob", { pattern: "**/*.ts", path: h.project }],
  ["webfetch", "WebFetch", { url: pageUrl, prompt: "What changed?" }],
  ["websearch", "WebSearch", { query: "spillway release notes" }],
  ["agent", "Agent", { description: "Summarise", prompt: "SUBAGENT: summarise the log", subagent_type: "general-purpose" }],
  ["mcp-text", "mcp__fixture__big_log", { lines: 12, seed: "cap" }],
  ["mcp-structured", "mcp__fixture__structured", { count: 3 }],
  // Over Claude Code's MCP token limit: PostToolUse gets a message naming the saved file.
  ["mcp-saved", "mcp__fixture__big_log", { lines: 2_000, seed: "cap" }],
];
/** Calls that fail: Claude Code sends PostToolUseFailure for them, never PostToolUse. */
const failing: typeof steps = [
  ["bash", "Bash", { command: 'echo building; echo "deploy failed: no space left" >&2; exit 3', description: "A failing command" }],
];

const search: Reply = {
  blocks: [
    { type: "server_tool_use", id: "srvtoolu_capture01", name: "web_search", input: { query: "spillway release notes" } },
    {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_capture01",
      content: [1, 2].map((i) => ({
        type: "web_search_result",
        title: `Release notes ${i}`,
        url: `https://example.com/notes/${i}`,
        encrypted_content: "ZW5j",
        page_age: null,
      })) as never,
    },
    { type: "text", text: "Two pages of release notes." },
  ],
};
const firstText = (r: MessagesRequest) => JSON.stringify(r.messages[0]?.content ?? "");
const model = await startModelServer((req) => {
  if (firstText(req).includes("SUBAGENT:")) return { text: "The log shows 1,500 requests, all INFO." };
  if (req.tools?.some((t) => (t as { type?: string }).type?.startsWith("web_search"))) return search;
  if (firstText(req).includes("Web page content:")) return { text: "The scheduler crash was fixed." };
  const n = toolCallsSoFar(req);
  const step = [...steps, ...failing][n];
  return step ? { tool: step[1], input: step[2] } : { text: "done" };
});

const payloads: Record<string, unknown>[] = [];
const hooks = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c));
  req.on("end", () => {
    payloads.push(JSON.parse(body));
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
const hookUrl = `http://127.0.0.1:${await listen(hooks)}/hooks/claude-code`;
const events = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart"];
writeUserSettings(h, {
  skipWebFetchPreflight: true,
  hooks: Object.fromEntries(events.map((e) => [e, [{ matcher: "*", hooks: [{ type: "http", url: hookUrl, timeout: 30 }] }]])),
});
writeFileSync(
  join(h.root, "mcp.json"),
  JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: ["--import", TSX, FIXTURE_SERVER] } } }),
);

const run = await runClaude({
  home: h,
  env: claudeEnv(h, model.url, { MCP_CONNECTION_NONBLOCKING: "0", NODE_TLS_REJECT_UNAUTHORIZED: "0" }),
  prompt: "Call each tool once.",
  // Claude Code 2.1 offers Grep and Glob only when asked for (its Bash embeds search otherwise).
  args: ["--mcp-config", join(h.root, "mcp.json"), "--strict-mcp-config", "--allowedTools", "Grep", "Glob"],
});
await model.close();
hooks.close();
page.close();
if (run.code !== 0) throw new Error(`claude exited ${run.code}: ${run.stderr}`);

// Scrub: temp paths, the session id and the port become stable placeholders.
const sessionId = String(payloads[0]?.session_id);
const scrub = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v)
      .replaceAll(h.root, "/tmp/claude-capture")
      // Claude Code names a project's folder after its path, separators turned into dashes.
      .replaceAll(h.root.replace(/[^A-Za-z0-9]/g, "-"), "-tmp-claude-capture")
      .replaceAll(sessionId, "00000000-0000-4000-8000-000000000000")
      .replaceAll(new URL(pageUrl).port, "8443")
      .replace(/"toolu_[0-9a-z]+"/g, '"toolu_01capture"')
      .replace(/"prompt_id":"[^"]+"/g, '"prompt_id":"00000000-0000-4000-8000-000000000001"')
      .replace(/"(duration_ms|durationMs|totalDurationMs)":[\d.]+/g, '"$1":1')
      .replace(/"durationSeconds":[\d.]+/g, '"durationSeconds":0.1'),
  );
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const post = payloads.filter((p) => p.hook_event_name === "PostToolUse");
for (const [name, tool, input] of steps) {
  const p = post.find((x) => x.tool_name === tool && JSON.stringify(x.tool_input) === JSON.stringify(input));
  if (!p) throw new Error(`no PostToolUse payload for ${name}`);
  writeFileSync(join(OUT, `post-${name}.json`), JSON.stringify(scrub(p), null, 2) + "\n");
}
for (const [name, tool, input] of failing) {
  const p = payloads.find(
    (x) => x.hook_event_name === "PostToolUseFailure" && x.tool_name === tool && JSON.stringify(x.tool_input) === JSON.stringify(input),
  );
  if (!p) throw new Error(`no PostToolUseFailure payload for ${name}`);
  writeFileSync(join(OUT, `failure-${name}.json`), JSON.stringify(scrub(p), null, 2) + "\n");
}
const pre = payloads.find((p) => p.hook_event_name === "PreToolUse" && p.tool_name === "Bash");
writeFileSync(join(OUT, "pre-bash.json"), JSON.stringify(scrub(pre), null, 2) + "\n");
writeFileSync(join(OUT, "VERSION"), `${CLAUDE_VERSION}\n`);
// The saved outputs are recreated by the tests (`seq 1 40000`, the fixture's big_log); check that they are.
const persisted = post.find((p) => (p.tool_response as { persistedOutputPath?: string }).persistedOutputPath);
const whole = readFileSync((persisted!.tool_response as { persistedOutputPath: string }).persistedOutputPath, "utf8");
if (whole !== seqOutput(40_000)) throw new Error("the persisted Bash output is not seq 1 40000");
const savedMcp = post.find((p) => p.tool_name === "mcp__fixture__big_log" && typeof p.tool_response === "string");
const savedPath = /saved to (\/\S+?)\.\n/.exec(savedMcp!.tool_response as string)![1]!;
if (readFileSync(savedPath, "utf8") !== bigLog(2_000, "cap")) throw new Error("the saved MCP output is not big_log(2000, cap)");
h.cleanup();
console.log(`captured ${steps.length + failing.length + 1} payloads from Claude Code ${CLAUDE_VERSION} into ${OUT}`);
