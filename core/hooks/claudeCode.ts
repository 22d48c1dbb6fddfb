/**
 * Claude Code HTTP hooks: PostToolUse replaces a rescued or repeated output, PreToolUse expands
 * spill: tokens, PreCompact / SessionStart(compact) mark compaction, UserPromptSubmit marks a turn.
 * Anything unexpected answers `{}` (Claude Code then carries on unchanged).
 */
import { OWN_TOOLS } from "../engine/transform";
import type { Engine } from "../engine/engineApi";
import { maskJsonValue } from "../sensitivity/maskJson";
import { builtinText, mcpText, replaceMcpText, splitToolName } from "./toolOutput";

/** The MCP server name `spillway connect claude-code` registers; its tools were handled by the proxy already. */
export const OWN_SERVER = "spillway";

export interface ClaudeCodeOptions {
  /** permissionDecision sent with updatedInput: "ask" keeps the user in the loop (default), "allow" auto-approves. */
  preToolDecision: "ask" | "allow";
}

type Payload = Record<string, unknown>;
type HookAnswer = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

export function handleClaudeCodeHook(engine: Engine, payload: Payload, opts: ClaudeCodeOptions): HookAnswer {
  const sessionId = str(payload.session_id);
  const event = str(payload.hook_event_name);
  if (!sessionId || !event) return {};
  engine.touchSession(sessionId, "claude-code");
  switch (event) {
    case "PostToolUse":
      return postToolUse(engine, sessionId, payload);
    case "PreToolUse":
      return preToolUse(engine, sessionId, payload, opts);
    case "PreCompact":
      engine.compaction(sessionId);
      return {};
    case "SessionStart":
      if (payload.source === "compact") engine.compaction(sessionId);
      return {};
    case "UserPromptSubmit":
      engine.turn(sessionId);
      return {};
    default:
      return {};
  }
}

function postToolUse(engine: Engine, sessionId: string, p: Payload): HookAnswer {
  const name = str(p.tool_name);
  if (!name) return {};
  const { server, tool } = splitToolName(name);
  if (server === OWN_SERVER || OWN_TOOLS.has(tool)) return {};
  const isMcp = server !== null;
  const { text, isError } = isMcp ? mcpText(p.tool_response) : { text: builtinText(p.tool_response), isError: false };
  const r = engine.transformToolResult({ sessionId, tool: name, server, args: p.tool_input, text, isError });
  const replaced = r.outcome === "rescued" || r.outcome === "stubbed";
  if (!replaced && !r.masked) return {};
  // A masked pass-through keeps the MCP result's shape (items, structuredContent), its strings through the model's exit.
  const mcpOutput = () => (replaced ? replaceMcpText(p.tool_response, r.text) : maskJsonValue(p.tool_response, (t) => engine.modelView(t, name)));
  const output = isMcp ? { updatedMCPToolOutput: mcpOutput() } : { updatedToolOutput: r.text };
  return { hookSpecificOutput: { hookEventName: "PostToolUse", ...output } };
}

function preToolUse(engine: Engine, sessionId: string, p: Payload, opts: ClaudeCodeOptions): HookAnswer {
  const name = str(p.tool_name);
  const input = p.tool_input;
  // Most calls carry no token: skip the engine (and its ledger) for them.
  if (!name || input === undefined || !JSON.stringify(input).includes("spill:")) return {};
  const { server } = splitToolName(name);
  const r = engine.expandArguments({ sessionId, tool: name, server, args: input });
  if (!r.changed) {
    return r.note ? { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: r.note } } : {};
  }
  const expanded = r.expansions.filter((e) => e.outcome === "expanded").length;
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: opts.preToolDecision,
      permissionDecisionReason: `Spillway replaced ${expanded} spill: reference${expanded === 1 ? "" : "s"} by the stored result${expanded === 1 ? "" : "s"}.`,
      updatedInput: r.args,
      ...(r.note ? { additionalContext: r.note } : {}),
    },
  };
}
