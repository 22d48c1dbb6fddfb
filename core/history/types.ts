/**
 * An agent's session as its history file tells it, in one shape for every agent: the items in the
 * order the model saw them (text, tool calls, tool results), which the import stores as an
 * imported session and the replay lab re-sends request by request.
 */
import type { HistoryAgent } from "../vocabulary";

export type { HistoryAgent };

/** How an agent kept only part of a result from the model. */
export type HostCut = "persisted" | "truncated";

/** Something the model was sent (or sent) that is not a tool result. */
export interface TextItem {
  type: "text";
  /** input: sent to the model (user, system, developer); output: produced by it (assistant text, reasoning). */
  dir: "input" | "output";
  text: string;
  ts: number;
}

/** A tool call the model made. */
export interface CallItem {
  type: "call";
  /** The agent's own id for the call (tool_use id, call_id…), unique in its session. */
  callId: string;
  tool: string;
  server: string | null;
  args: unknown;
  ts: number;
}

/** The answer to a call, as the model got it and, where the agent kept it, whole. */
export interface ResultItem {
  type: "result";
  callId: string;
  /** What the model was sent for this call (the agent's notice and preview when it cut the result). */
  given: string;
  /** The tool's own result, whole where the agent kept it (a persisted file); else the same as `given` without the agent's wrapping. */
  result: string;
  isError: boolean;
  /** Set when the agent cut the result; `persistedPath` names the file it saved, when it said. */
  hostCut: HostCut | null;
  persistedPath: string | null;
  /** The persisted file was named but could not be read (moved, deleted): `result` is only what the model got. */
  persistedMissing: boolean;
  ts: number;
}

/** The agent compacted the conversation: later requests no longer carry what came before. */
export interface CompactItem {
  type: "compact";
  ts: number;
}

export type HistoryItem = TextItem | CallItem | ResultItem | CompactItem;

/** A line (or record) of a history that could not be read; reported, then skipped. */
export interface ImportIssue {
  file: string;
  /** 1-based line number; 0 when the issue is about the whole file. */
  line: number;
  message: string;
}

/** One session of one agent, ready to be stored. */
export interface HistorySession {
  agent: HistoryAgent;
  /** The agent's own session id. */
  sourceId: string;
  /** The file (or database) it was read from. */
  source: string;
  /** The project's folder, as the agent recorded it. */
  project: string | null;
  /** The model the session used last (per call, `models` when it changed). */
  model: string | null;
  title: string | null;
  startedAt: number;
  items: HistoryItem[];
  /** The model per call id, when the agent recorded it per message. */
  models?: Map<string, string>;
}

/** Reads the sessions of one source file; `issue` reports what it skipped. */
export type SessionReader = (file: string, issue: (i: ImportIssue) => void, signal?: AbortSignal) => AsyncIterable<HistorySession>;

/** How far an import run is. */
export interface ImportProgress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
  sessions: number;
  callsAdded: number;
  callsKept: number;
  /** The file being read. */
  current: string | null;
}
