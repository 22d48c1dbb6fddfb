/**
 * Claude Code's transcripts: `~/.claude/projects/<project>/<session>.jsonl`, one record a line
 * (user, assistant, attachment, system…), tool results in user records. Results over its limits
 * are saved beside the transcript (`<session>/tool-results/<file>`) and the model gets a
 * `<persisted-output>` preview or an "exceeds maximum allowed tokens" error naming the file.
 */
import { basename, dirname, join } from "node:path";
import { findNotice, readPersisted } from "./notices";
import { contentText, isObject, jsonLines, str, timeOf } from "./jsonLines";
import type { HistoryItem, HistorySession, ImportIssue, ResultItem } from "./types";

/** `mcp__<server>__<tool>` names the server; built-in tools have none. */
export function mcpServerOf(tool: string): string | null {
  const m = /^mcp__(.+?)__/.exec(tool);
  return m ? m[1]! : null;
}

function attachmentText(a: unknown): string {
  if (!isObject(a)) return "";
  if (typeof a.content === "string") return a.content;
  if (Array.isArray(a.addedLines)) return a.addedLines.filter((l) => typeof l === "string").join("\n");
  return "";
}

/** A tool_result block as an item: the persisted file read back when the model only got a notice. */
function resultOf(block: Record<string, unknown>, ts: number, file: string, sessionId: string): ResultItem {
  const given = contentText(block.content);
  const notice = findNotice(given, "claude-code");
  const item: ResultItem = {
    type: "result",
    callId: String(block.tool_use_id),
    given,
    result: given,
    isError: block.is_error === true,
    hostCut: notice?.cut ?? null,
    persistedPath: notice?.path ?? null,
    persistedMissing: false,
    ts,
  };
  if (notice?.path) {
    const whole = readPersisted([join(dirname(file), sessionId, "tool-results", basename(notice.path))]);
    if (whole) item.result = whole.text;
    else item.persistedMissing = true;
  }
  return item;
}

export async function* readClaudeCode(file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal): AsyncGenerator<HistorySession> {
  const sessionId = basename(file).replace(/\.jsonl$/, "");
  const items: HistoryItem[] = [];
  const models = new Map<string, string>();
  const answered = new Set<string>();
  let project: string | null = null;
  let model: string | null = null;
  let title: string | null = null;
  let startedAt = 0;
  let firstPrompt: string | null = null;

  for await (const { line, value: r } of jsonLines(file, issue, signal)) {
    const ts = timeOf(r.timestamp, startedAt);
    if (!startedAt && ts) startedAt = ts;
    project ??= str(r.cwd);
    // Subagents' own conversations are other requests with their own context.
    if (r.isSidechain === true) continue;
    const type = str(r.type);
    if (type === "summary") title ??= str(r.summary);
    if (type === "system" && r.subtype === "compact_boundary") items.push({ type: "compact", ts });
    if (type === "attachment") {
      const text = attachmentText(r.attachment);
      if (text) items.push({ type: "text", dir: "input", text, ts });
    }
    if (type !== "user" && type !== "assistant") continue;
    const msg = r.message;
    if (!isObject(msg)) {
      issue({ file, line, message: `a ${type} record without a message` });
      continue;
    }
    if (type === "assistant" && typeof msg.model === "string" && msg.model !== "<synthetic>") model = msg.model;
    const content = msg.content;
    if (typeof content === "string") {
      items.push({ type: "text", dir: type === "user" ? "input" : "output", text: content, ts });
      if (type === "user" && r.isMeta !== true) firstPrompt ??= content;
      continue;
    }
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (!isObject(b)) continue;
      if (b.type === "text" && typeof b.text === "string") {
        items.push({ type: "text", dir: type === "user" ? "input" : "output", text: b.text, ts });
        if (type === "user" && r.isMeta !== true) firstPrompt ??= b.text;
      } else if (b.type === "tool_use" && type === "assistant") {
        const tool = str(b.name) ?? "?";
        const callId = str(b.id) ?? `${line}`;
        if (model) models.set(callId, model);
        items.push({ type: "call", callId, tool, server: mcpServerOf(tool), args: b.input ?? {}, ts });
      } else if (b.type === "tool_result" && type === "user") {
        const id = String(b.tool_use_id);
        if (answered.has(id)) continue;
        answered.add(id);
        items.push(resultOf(b, ts, file, sessionId));
      } else if (b.type === "image" || b.type === "document") {
        items.push({ type: "text", dir: type === "user" ? "input" : "output", text: `[${b.type}]`, ts });
      }
      // thinking blocks: not sent back in later requests.
    }
  }
  if (items.length === 0) return;
  yield {
    agent: "claude-code",
    sourceId: sessionId,
    source: file,
    project,
    model,
    startedAt,
    title: title ?? (firstPrompt ? firstPrompt.slice(0, 80) : null),
    items,
    models,
  };
}
