/**
 * Codex's rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, one
 * `{timestamp, type, payload}` a line. The conversation is the `response_item` lines (messages,
 * function calls and their outputs), exactly as Codex sends them back to the model. Codex cuts a
 * long output in its middle (`…N tokens truncated…`) and keeps no copy of the whole.
 */
import { basename } from "node:path";
import { findNotice } from "./notices";
import { contentText, isObject, jsonLines, str, timeOf } from "./jsonLines";
import type { HistoryItem, HistorySession, ImportIssue } from "./types";

/** Codex's own lines before a tool's output ("Wall time: 0.03 seconds", "Exit code: 0", then "Output:"). */
const HEADER = /^(?:[A-Z][A-Za-z ]*: [^\n]*\n)*Output:(?:\n|$)/;

/** What the model got for a call, and the tool's own output without Codex's header. */
function outputOf(output: unknown): { given: string; result: string } {
  if (Array.isArray(output)) {
    const parts = output.filter(isObject);
    const texts = parts.map((p) => contentText([p]));
    const given = texts.join("\n");
    const body = texts.length > 1 && HEADER.test(texts[0]! + "\n") ? texts.slice(1) : texts;
    return { given, result: body.join("\n") };
  }
  const given = typeof output === "string" ? output : JSON.stringify(output ?? "");
  const m = HEADER.exec(given);
  return { given, result: m && m[0].length < given.length ? given.slice(m[0].length) : given };
}

function parseArgs(v: unknown): unknown {
  if (typeof v !== "string") return v ?? {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export async function* readCodex(file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal): AsyncGenerator<HistorySession> {
  const items: HistoryItem[] = [];
  const models = new Map<string, string>();
  let sourceId = basename(file)
    .replace(/^rollout-/, "")
    .replace(/\.jsonl$/, "");
  let project: string | null = null;
  let model: string | null = null;
  let title: string | null = null;
  let startedAt = 0;

  for await (const { line, value: r } of jsonLines(file, issue, signal)) {
    const ts = timeOf(r.timestamp, startedAt);
    if (!startedAt && ts) startedAt = ts;
    const p = r.payload;
    if (!isObject(p)) {
      issue({ file, line, message: `a ${String(r.type)} line without a payload` });
      continue;
    }
    if (r.type === "session_meta") {
      sourceId = str(p.id) ?? str(p.session_id) ?? sourceId;
      project = str(p.cwd) ?? project;
      // The instructions go out with every request.
      const base = isObject(p.base_instructions) ? str(p.base_instructions.text) : str(p.instructions);
      if (base) items.push({ type: "text", dir: "input", text: base, ts });
      continue;
    }
    if (r.type === "turn_context") {
      model = str(p.model) ?? model;
      continue;
    }
    if (r.type === "compacted") {
      items.push({ type: "compact", ts });
      const summary = str(p.message);
      if (summary) items.push({ type: "text", dir: "input", text: summary, ts });
      continue;
    }
    if (r.type !== "response_item") continue;
    const kind = str(p.type);
    if (kind === "message") {
      const text = contentText(p.content);
      const role = str(p.role);
      items.push({ type: "text", dir: role === "assistant" ? "output" : "input", text, ts });
      if (role === "user" && !text.startsWith("<")) title ??= text.slice(0, 80);
    } else if (kind === "function_call" || kind === "custom_tool_call" || kind === "local_shell_call" || kind === "tool_search_call") {
      const callId = str(p.call_id) ?? str(p.id) ?? `line ${line}`;
      const ns = str(p.namespace);
      const name = kind === "tool_search_call" ? "tool_search" : kind === "local_shell_call" ? "local_shell" : (str(p.name) ?? "?");
      // MCP tools arrive as namespace mcp__<server> plus the tool's own name.
      const tool = ns ? `${ns}__${name}` : name;
      const server = ns?.startsWith("mcp__") ? ns.slice(5) : null;
      const args = kind === "function_call" ? parseArgs(p.arguments) : (p.input ?? p.action ?? p.arguments ?? {});
      if (model) models.set(callId, model);
      items.push({ type: "call", callId, tool, server, args, ts });
    } else if (kind === "function_call_output" || kind === "custom_tool_call_output" || kind === "tool_search_output") {
      const callId = str(p.call_id) ?? `line ${line}`;
      const { given, result } =
        kind === "tool_search_output"
          ? { given: JSON.stringify(p.tools ?? []), result: JSON.stringify(p.tools ?? []) }
          : outputOf(p.output);
      const notice = findNotice(given, "codex");
      items.push({
        type: "result",
        callId,
        given,
        result,
        isError: p.success === false || p.status === "failed",
        hostCut: notice?.cut ?? null,
        persistedPath: notice?.path ?? null,
        persistedMissing: false,
        ts,
      });
    }
    // reasoning items are encrypted and counted by the provider; not text to store.
  }
  if (items.length === 0) return;
  yield { agent: "codex", sourceId, source: file, project, model, title, startedAt, items, models };
}
