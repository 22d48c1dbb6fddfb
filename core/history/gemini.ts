/**
 * Gemini CLI's chats: `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, a header line then
 * records (`$set` updates, messages upserted by id); older versions wrote one `session-*.json`
 * object with a `messages` list. A gemini message carries its tool calls with their results. A
 * result over the limit is saved in `tool-outputs/session-<id>/` and the model gets its head and tail.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { findNotice, readPersisted } from "./notices";
import { contentText, isObject, jsonLines, str, timeOf } from "./jsonLines";
import type { HistoryItem, HistorySession, ImportIssue } from "./types";

/** Gemini CLI wraps an MCP tool's text in these tags; the tool's own result is what is inside. */
const WRAP = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/;
const unwrap = (s: string) => WRAP.exec(s)?.[1] ?? s;

type Message = Record<string, unknown>;

/** The text of a functionResponse's response (output, error, or the whole object). */
function responseText(fr: unknown): { text: string; isError: boolean } {
  const r = isObject(fr) && isObject(fr.response) ? fr.response : null;
  if (!r) return { text: "", isError: false };
  if (typeof r.output === "string") return { text: r.output, isError: false };
  if (typeof r.error === "string") return { text: r.error, isError: true };
  if (r.content !== undefined) return { text: contentText(r.content), isError: false };
  return { text: JSON.stringify(r), isError: false };
}

/** `$set` replaces fields (a `messages` list wholesale); a record with an id adds or replaces that message. */
async function collect(
  file: string,
  issue: (i: ImportIssue) => void,
  signal?: AbortSignal,
): Promise<{ header: Record<string, unknown>; messages: Message[] }> {
  if (file.endsWith(".json")) {
    try {
      const whole = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      return { header: whole, messages: Array.isArray(whole.messages) ? whole.messages.filter(isObject) : [] };
    } catch (err) {
      issue({ file, line: 0, message: `not JSON (${(err as Error).message.split("\n")[0]})` });
      return { header: {}, messages: [] };
    }
  }
  const header: Record<string, unknown> = {};
  const order: string[] = [];
  const byId = new Map<string, Message>();
  let anon = 0;
  const put = (m: Message) => {
    const id = str(m.id) ?? `#${anon++}`;
    if (!byId.has(id)) order.push(id);
    byId.set(id, m);
  };
  for await (const { value: r } of jsonLines(file, issue, signal)) {
    if (isObject(r.$set)) {
      const set = r.$set;
      if (Array.isArray(set.messages)) {
        order.length = 0;
        byId.clear();
        for (const m of set.messages) if (isObject(m)) put(m);
      }
      for (const [k, v] of Object.entries(set)) if (k !== "messages") header[k] = v;
    } else if (typeof r.type === "string" && r.id !== undefined) put(r);
    else if (r.sessionId !== undefined) Object.assign(header, r);
  }
  return { header, messages: order.map((id) => byId.get(id)!) };
}

export async function* readGemini(file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal): AsyncGenerator<HistorySession> {
  const { header, messages } = await collect(file, issue, signal);
  const sourceId = str(header.sessionId) ?? basename(file).replace(/\.jsonl?$/, "");
  const startedAt = timeOf(header.startTime, 0);
  const items: HistoryItem[] = [];
  const models = new Map<string, string>();
  let model: string | null = null;
  let title: string | null = null;
  for (const m of messages) {
    const ts = timeOf(m.timestamp, startedAt);
    if (m.type === "user") {
      // Function responses in user messages repeat the results the gemini message already carries.
      const parts = Array.isArray(m.content) ? m.content.filter((p) => !(isObject(p) && p.functionResponse)) : m.content;
      const text = contentText(parts);
      if (text) items.push({ type: "text", dir: "input", text, ts });
      if (text && !text.startsWith("<session_context>")) title ??= text.slice(0, 80);
      continue;
    }
    if (m.type !== "gemini") continue;
    model = str(m.model) ?? model;
    const text = contentText(m.content);
    if (text) items.push({ type: "text", dir: "output", text, ts });
    for (const tc of Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : []) {
      const callId = str(tc.id) ?? `${sourceId}-${items.length}`;
      const tool = str(tc.name) ?? "?";
      const server = /^mcp_([^_]+)_/.exec(tool)?.[1] ?? null;
      if (model) models.set(callId, model);
      items.push({ type: "call", callId, tool, server, args: tc.args ?? {}, ts });
      const responses = Array.isArray(tc.result) ? tc.result.filter(isObject) : [];
      const answers = responses.map((r) => responseText(r.functionResponse));
      const given = answers.map((a) => a.text).join("\n");
      const notice = findNotice(given, "gemini-cli");
      let result = unwrap(given);
      let persistedMissing = false;
      if (notice?.path) {
        const chats = dirname(file);
        const whole = readPersisted([join(dirname(chats), "tool-outputs", `session-${sourceId}`, basename(notice.path))]);
        if (whole) result = unwrap(whole.text);
        else persistedMissing = true;
      }
      items.push({
        type: "result",
        callId,
        given,
        result,
        isError: tc.status === "error" || answers.some((a) => a.isError),
        hostCut: notice?.cut ?? null,
        persistedPath: notice?.path ?? null,
        persistedMissing,
        ts: timeOf(tc.timestamp, ts),
      });
    }
  }
  if (items.length === 0) return;
  let project: string | null = null;
  try {
    project = readFileSync(join(dirname(dirname(file)), ".project_root"), "utf8").trim() || null;
  } catch {
    project = basename(dirname(dirname(file)));
  }
  yield { agent: "gemini-cli", sourceId, source: file, project, model, title, startedAt, items, models };
}
