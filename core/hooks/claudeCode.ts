/**
 * Claude Code HTTP hooks: PostToolUse replaces a rescued or repeated output (in the tool's own
 * output shape, which Claude Code checks), PostToolUseFailure records a call that failed (Claude
 * Code lets a hook add context to it, never change it), PreToolUse expands spill: tokens,
 * PreCompact / SessionStart(compact) mark compaction, UserPromptSubmit marks a turn. Each recorded
 * call keeps the hook request and the answer as its raw record. Anything unexpected answers `{}`
 * (Claude Code then carries on unchanged).
 */
import { OWN_TOOLS } from "../engine/transform";
import type { Engine } from "../engine/engineApi";
import { maskJsonValue } from "../sensitivity/maskJson";
import { viewBuiltinOutput } from "./builtinOutput";
import { readPersistedOutput, type PersistedRef } from "./persistedOutput";
import { mcpSavedOutput, mcpText, replaceMcpText, splitToolName } from "./toolOutput";
import type { ToolUseSessions } from "./toolUseSessions";
import type { PreToolUseRecord, PreToolUses } from "./preToolUses";

/** The MCP server name `spillway connect claude-code` registers; its tools were handled by the proxy already. */
export const OWN_SERVER = "spillway";

export interface ClaudeCodeOptions {
  /** Where PreToolUse leaves the tool-use ids of Spillway's own MCP calls, for `spillway serve`'s MCP sessions. */
  toolUses?: ToolUseSessions;
  /** Where PreToolUse leaves the expansions it made, for the call's record at PostToolUse. */
  preToolUses?: PreToolUses;
  /** Sessions already logged as having no Spillway tools (each is logged once). */
  unreached?: Set<string>;
}

/** The name Claude Code gives itself as an MCP client (clientInfo). */
const CLAUDE_CLIENT = "claude-code";

/**
 * Whether the session's model can call rescuer_fetch and recall_result: a Spillway MCP session
 * served it (a stdio server Claude Code started for it records that before its tools are listed),
 * or a Claude Code process is connected to one of this `spillway serve`'s HTTP MCP sessions (which
 * session it belongs to shows only with its first call). Without them a handle or a stub would leave the model
 * with a preview it cannot read further, so results are delivered whole (secrets masked).
 */
function toolsReach(engine: Engine, sessionId: string, opts: ClaudeCodeOptions): boolean {
  if (engine.hasTools(sessionId) || opts.toolUses?.clientOpen(CLAUDE_CLIENT)) return true;
  const logged = opts.unreached;
  if (logged && !logged.has(sessionId)) {
    if (logged.size >= 1_000) logged.clear();
    logged.add(sessionId);
    engine.logger.warn(
      "no Spillway MCP server serves this Claude Code session: its results are delivered whole (check `claude mcp list` for spillway)",
      { session: sessionId },
    );
  }
  return false;
}

type Payload = Record<string, unknown>;
type HookAnswer = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/** A call to a tool Spillway itself serves (its own tools, or an upstream's through the proxy). */
function isSpillways(name: string): boolean {
  const { server, tool } = splitToolName(name);
  return server === OWN_SERVER || (server !== null && OWN_TOOLS.has(tool));
}

export async function handleClaudeCodeHook(engine: Engine, payload: Payload, opts: ClaudeCodeOptions = {}): Promise<HookAnswer> {
  const sessionId = str(payload.session_id);
  const event = str(payload.hook_event_name);
  if (!sessionId || !event) return {};
  engine.touchSession(sessionId, "claude-code");
  switch (event) {
    case "PostToolUse": {
      const pre = opts.preToolUses?.take(str(payload.tool_use_id)) ?? null;
      const { callId, answer } = await postToolUse(engine, sessionId, payload, writtenArgs(payload, pre), opts);
      noteHookCall(engine, callId, payload, answer, pre);
      return answer;
    }
    case "PostToolUseFailure": {
      const pre = opts.preToolUses?.take(str(payload.tool_use_id)) ?? null;
      noteHookCall(engine, postToolUseFailure(engine, sessionId, payload, writtenArgs(payload, pre)), payload, {}, pre);
      return {};
    }
    case "PreToolUse":
      return preToolUse(engine, sessionId, payload, opts);
    case "PreCompact":
      engine.compaction(sessionId);
      return {};
    case "SessionStart":
      if (payload.source === "compact") engine.compaction(sessionId);
      return {};
    case "UserPromptSubmit":
      engine.turn(sessionId, str(payload.prompt));
      return {};
    default:
      return {};
  }
}

/** The answer, and the call it recorded (null: none, as for Spillway's own tools, or fails open). */
type Handled = { callId: number | null; answer: HookAnswer };
const NONE: Handled = { callId: null, answer: {} };

/**
 * The arguments as the model wrote them: after PreToolUse expanded a `spill:` token, Claude Code
 * reports the expanded input (up to 500 K chars of a stored result, which the call row would copy).
 */
function writtenArgs(p: Payload, pre: PreToolUseRecord | null): unknown {
  const request = pre?.request as Payload | undefined;
  return request && request.tool_input !== undefined ? request.tool_input : p.tool_input;
}

async function postToolUse(engine: Engine, sessionId: string, p: Payload, args: unknown, opts: ClaudeCodeOptions): Promise<Handled> {
  const name = str(p.tool_name);
  if (!name || isSpillways(name)) return NONE;
  const { server } = splitToolName(name);
  if (!toolsReach(engine, sessionId, opts)) return unreached(engine, sessionId, name, server, p, args);
  const exit = (t: string) => engine.modelView(t, name);
  const files = { transcriptPath: String(p.transcript_path ?? ""), sessionId };
  /** The whole output Claude Code saved to a file, or null (logged) when it cannot be used. */
  const whole = async (ref: PersistedRef): Promise<string | null> => {
    const read = await readPersistedOutput(ref, files);
    // Storing the part Claude Code passed on as if it were the output would answer greps and recalls wrongly.
    if (!read.ok)
      engine.logger.warn("saved tool output not read; leaving Claude Code's own answer", {
        tool: name,
        session: sessionId,
        reason: read.reason,
      });
    return read.ok ? read.text : null;
  };
  if (server !== null) {
    // Over its token limit Claude Code passes on a message naming the file it saved the result to.
    const saved = mcpSavedOutput(p.tool_response);
    const savedText = saved ? await whole(saved) : undefined;
    if (savedText === null) return NONE;
    const { text, isError } = savedText !== undefined ? { text: savedText, isError: false } : mcpText(p.tool_response);
    const r = engine.transformToolResult({ sessionId, tool: name, server, args, text, isError });
    noteDuration(engine, r.callId, p.duration_ms);
    const replaced = r.outcome === "rescued" || r.outcome === "stubbed";
    if (!replaced && !r.masked) return beside(r.callId, "updatedMCPToolOutput", p.tool_response, textsOf(p.tool_response), exit);
    // A masked pass-through keeps the result's shape (items, structuredContent), its strings through the model's exit.
    const out =
      replaced || savedText !== undefined
        ? maskJsonValue(replaceMcpText(p.tool_response, r.text), except(r.text, exit))
        : maskJsonValue(p.tool_response, exit);
    return { callId: r.callId, answer: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: out } } };
  }
  const view = viewBuiltinOutput(name, p.tool_response);
  if (!view) return NONE;
  const text = view.persisted ? await whole(view.persisted) : view.text;
  if (text === null) return NONE;
  const r = engine.transformToolResult({ sessionId, tool: name, server: null, args, text, isError: false });
  noteDuration(engine, r.callId, p.duration_ms);
  // A pass-through whose secrets were masked is answered too, in the tool's own output shape.
  if (r.outcome !== "rescued" && r.outcome !== "stubbed" && !r.masked)
    return beside(r.callId, "updatedToolOutput", p.tool_response, new Set([view.text]), exit);
  // The fields beside the text (an Agent's prompt, a WebSearch's query) are given to the model too.
  const out = maskJsonValue(view.replace(r.text), except(r.text, exit));
  return { callId: r.callId, answer: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: out } } };
}

/** The model's exit, but for `done`: a text already through it (not worth a second pass on a large output). */
const except = (done: string, exit: (t: string) => string) => (t: string) => (t === done ? t : exit(t));

/**
 * A pass-through whose text was found clean: no answer, unless a string beside that text (`clean`)
 * holds a secret, when the model gets the output with every such string masked.
 */
function beside(callId: number | null, key: string, response: unknown, clean: ReadonlySet<string>, exit: (t: string) => string): Handled {
  const out = maskJsonValue(response, (t) => (clean.has(t) ? t : exit(t)));
  if (out === response) return { callId, answer: {} };
  return { callId, answer: { hookSpecificOutput: { hookEventName: "PostToolUse", [key]: out } } };
}

/** The texts an MCP tool's response holds (a string, or its text items' texts), as mcpText read them. */
function textsOf(response: unknown): Set<string> {
  if (typeof response === "string") return new Set([response]);
  const obj = response && typeof response === "object" ? (response as { content?: unknown }) : null;
  const items: unknown[] = Array.isArray(response) ? response : Array.isArray(obj?.content) ? obj.content : [];
  return new Set(items.flatMap((c) => (c && typeof (c as { text?: unknown }).text === "string" ? [(c as { text: string }).text] : [])));
}

/**
 * A session whose model has no Spillway tools: the call is recorded as Claude Code answered it (its
 * own preview and file when it saved a large output, which the model can Read) and the model gets
 * that answer, with only its secrets masked, in the tool's own shape.
 */
function unreached(engine: Engine, sessionId: string, name: string, server: string | null, p: Payload, args: unknown): Handled {
  const view = server === null ? viewBuiltinOutput(name, p.tool_response) : null;
  if (server === null && !view) return NONE;
  const { text, isError } = view ? { text: view.text, isError: false } : mcpText(p.tool_response);
  const r = engine.transformToolResult({ sessionId, tool: name, server, args, text, isError, handles: false });
  noteDuration(engine, r.callId, p.duration_ms);
  const out = maskJsonValue(p.tool_response, (t) => engine.modelView(t, name));
  if (out === p.tool_response) return { callId: r.callId, answer: {} };
  const key = server === null ? "updatedToolOutput" : "updatedMCPToolOutput";
  return { callId: r.callId, answer: { hookSpecificOutput: { hookEventName: "PostToolUse", [key]: out } } };
}

/**
 * A tool that failed in Claude Code (a command's non-zero exit, a refused edit, an MCP error, an
 * interrupt): Claude Code gives the model `error`, and the call is kept with it (masked), as a call
 * the proxy saw fail is. Spillway's own tools are recorded by the proxy.
 */
function postToolUseFailure(engine: Engine, sessionId: string, p: Payload, args: unknown): number | null {
  const name = str(p.tool_name);
  if (!name || isSpillways(name)) return null;
  const ms = typeof p.duration_ms === "number" && Number.isFinite(p.duration_ms) ? p.duration_ms : null;
  return engine.recordFailedCall({
    sessionId,
    tool: name,
    server: splitToolName(name).server,
    args,
    message: typeof p.error === "string" ? p.error : JSON.stringify(p.error ?? "The tool failed (Claude Code sent no error text)."),
    durationMs: ms,
  });
}

/**
 * The hook request and the answer Spillway gave, as the call's raw record (masked and cut by the
 * engine), with the PreToolUse exchange that expanded its arguments, whose expansions it received.
 */
function noteHookCall(engine: Engine, callId: number | null, request: Payload, answer: HookAnswer, pre: PreToolUseRecord | null): void {
  if (callId === null) return;
  engine.noteCall(callId, {
    rpc: { kind: "hook", request, response: answer, upstreamRequest: pre?.request, upstreamResponse: pre?.answer },
    expansionEventIds: pre?.eventIds,
  });
}

/** Claude Code reports how long the tool ran (`duration_ms`); the call's record keeps it. */
function noteDuration(engine: Engine, callId: number | null, ms: unknown): void {
  if (callId !== null && typeof ms === "number" && Number.isFinite(ms)) engine.noteCall(callId, { durationMs: ms });
}

function preToolUse(engine: Engine, sessionId: string, p: Payload, opts: ClaudeCodeOptions): HookAnswer {
  const name = str(p.tool_name);
  const input = p.tool_input;
  if (!name) return {};
  if (isSpillways(name)) {
    // The proxy expands these itself; here only note whose call it is, for the HTTP MCP session.
    const toolUseId = str(p.tool_use_id);
    if (toolUseId) opts.toolUses?.record(toolUseId, sessionId);
    return {};
  }
  // Most calls carry no token: skip the engine (and its ledger) for them.
  if (input === undefined || !JSON.stringify(input).includes("spill:")) return {};
  const { server } = splitToolName(name);
  const r = engine.expandArguments({ sessionId, tool: name, server, args: input });
  // No permissionDecision: Claude Code then runs its usual permission check on the expanded input,
  // so nothing runs that would not have run anyway ("ask" is a denial in `claude -p`; "allow" would
  // skip the user's rules).
  const out: HookAnswer = !r.changed
    ? r.note
      ? { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: r.note } }
      : {}
    : { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: r.args, ...(r.note ? { additionalContext: r.note } : {}) } };
  const toolUseId = str(p.tool_use_id);
  if (toolUseId && r.eventIds.length) opts.preToolUses?.record(toolUseId, { request: p, answer: out, eventIds: r.eventIds });
  return out;
}
