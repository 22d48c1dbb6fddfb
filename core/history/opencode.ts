/**
 * OpenCode's store: an SQLite file in `~/.local/share/opencode/` ( session, message and part
 * tables, each row's `data` a JSON object), read-only, never written. A tool part holds its input
 * and output; an output over the limit is cut and saved in `tool-output/<id>`, named in the part's
 * metadata and in the notice the model gets.
 */
import { basename, dirname, join } from "node:path";
import { throwIfAborted, contentText, isObject, str } from "./jsonLines";
import { findNotice, readPersisted } from "./notices";
import type { HistoryItem, HistorySession, ImportIssue } from "./types";
import { openOpencodeDb, type OpencodeDataRow, type OpencodeDb } from "../store/foreign/opencodeDb";

function parse(row: OpencodeDataRow, file: string, table: string, issue: (i: ImportIssue) => void): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(row.data);
    if (isObject(v)) return v;
  } catch {
    // reported below
  }
  issue({ file, line: 0, message: `${table} ${row.id}: its data is not a JSON object` });
  return null;
}

function toolItems(part: Record<string, unknown>, ts: number, dataDir: string): HistoryItem[] {
  const state = isObject(part.state) ? part.state : {};
  const callId = str(part.callID) ?? str(part.id) ?? "?";
  const tool = str(part.tool) ?? "?";
  const out: HistoryItem[] = [{ type: "call", callId, tool, server: null, args: state.input ?? {}, ts }];
  const status = str(state.status);
  if (status !== "completed" && status !== "error") return out;
  const given = status === "error" ? (str(state.error) ?? "") : (str(state.output) ?? contentText(state.output));
  const meta = isObject(state.metadata) ? state.metadata : {};
  const notice = findNotice(given, "opencode");
  const path = str(meta.outputPath) ?? notice?.path ?? null;
  let result = given;
  let persistedMissing = false;
  if (path) {
    const whole = readPersisted([join(dataDir, "tool-output", basename(path))]);
    if (whole) result = whole.text;
    else persistedMissing = true;
  }
  const time = isObject(state.time) && typeof state.time.end === "number" ? state.time.end : ts;
  out.push({
    type: "result",
    callId,
    given,
    result,
    isError: status === "error",
    hostCut: path || meta.truncated === true ? "persisted" : (notice?.cut ?? null),
    persistedPath: path,
    persistedMissing,
    ts: time,
  });
  return out;
}

export async function* readOpencode(file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal): AsyncGenerator<HistorySession> {
  let db: OpencodeDb;
  try {
    db = openOpencodeDb(file);
  } catch (err) {
    issue({ file, line: 0, message: `cannot open OpenCode's database (${(err as Error).message})` });
    return;
  }
  try {
    const dataDir = dirname(file);
    const sessions = db.sessions();
    for (const s of sessions) {
      throwIfAborted(signal);
      const byMessage = new Map<string, OpencodeDataRow[]>();
      for (const p of db.parts(s.id)) {
        const list = byMessage.get(p.message_id) ?? [];
        list.push(p);
        byMessage.set(p.message_id, list);
      }
      const items: HistoryItem[] = [];
      const models = new Map<string, string>();
      let model: string | null = null;
      for (const m of db.messages(s.id)) {
        const msg = parse(m, file, "message", issue);
        if (!msg) continue;
        const role = msg.role === "assistant" ? "output" : "input";
        if (role === "output") model = str(msg.modelID) ?? model;
        for (const row of byMessage.get(m.id) ?? []) {
          const part = parse(row, file, "part", issue);
          if (!part) continue;
          const ts = row.time_created;
          if (part.type === "text" && typeof part.text === "string") items.push({ type: "text", dir: role, text: part.text, ts });
          else if (part.type === "tool") {
            const got = toolItems(part, ts, dataDir);
            if (model && got[0]?.type === "call") models.set(got[0].callId, model);
            items.push(...got);
          } else if (part.type === "compaction") items.push({ type: "compact", ts });
        }
      }
      if (items.length === 0) continue;
      yield {
        agent: "opencode",
        sourceId: s.id,
        source: file,
        project: s.directory,
        model,
        title: s.title,
        startedAt: s.time_created,
        items,
        models,
      };
    }
  } finally {
    db.close();
  }
}
