/**
 * OpenAI-compatible chat completions, as OpenCode's `@ai-sdk/openai-compatible` provider speaks
 * them: POST /v1/chat/completions with SSE chunks, tools named `<server>_<tool>`, results as
 * `role: "tool"` messages. A request without tools (OpenCode's title generation) is a side request.
 */
import type { ToolRef, TurnView } from "./policy";
import { sse, textParts, type WireAdapter } from "./server";

interface Message {
  role?: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id?: string; function?: { name?: string } }[];
}
interface Body {
  messages?: Message[];
  tools?: { function?: { name?: string } }[];
  stream?: boolean;
  model?: string;
}

/** An adapter for MCP servers named `servers` (their tools arrive as <server>_<tool>). */
export function chatAdapter(servers: string[]): WireAdapter {
  const baseOf = (name: string) => {
    for (const s of servers) if (name.startsWith(`${s}_`)) return name.slice(s.length + 1);
    return name;
  };
  return {
    accepts: (method, url) => method === "POST" && url.split("?")[0]!.endsWith("/chat/completions"),
    read(body) {
      const b = body as Body;
      const tools: ToolRef[] = (b.tools ?? []).flatMap((t) =>
        t.function?.name ? [{ call: t.function.name, base: baseOf(t.function.name) }] : [],
      );
      const names = new Map<string, string>();
      const results: TurnView["results"] = [];
      for (const m of b.messages ?? []) {
        for (const c of m.tool_calls ?? []) if (c.id) names.set(c.id, c.function?.name ?? "?");
        if (m.role !== "tool") continue;
        const parts = typeof m.content === "string" ? [m.content] : textParts(m.content);
        results.push({ tool: names.get(m.tool_call_id ?? "") ?? "?", parts, text: parts.join("\n") });
      }
      return { view: { tools, results }, main: tools.length > 0, prompt: { messages: b.messages, tools: b.tools } };
    },
    write(res, action, { n, body, promptTokens }) {
      const b = body as Body;
      const id = `chatcmpl-${n}`;
      const usage = { prompt_tokens: promptTokens, completion_tokens: 8, total_tokens: promptTokens + 8 };
      const call =
        action.type === "call"
          ? { id: `call_${n}`, type: "function", function: { name: action.tool.call, arguments: JSON.stringify(action.args) } }
          : undefined;
      const text = action.type === "call" || action.type === "discover" ? "" : action.text;
      const finish = call ? "tool_calls" : "stop";
      if (!b.stream) {
        const message = call ? { role: "assistant", content: null, tool_calls: [call] } : { role: "assistant", content: text };
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            created: 0,
            model: b.model,
            choices: [{ index: 0, message, finish_reason: finish }],
            usage,
          }),
        );
        return;
      }
      const chunk = (delta: unknown, finish_reason: string | null, extra: Record<string, unknown> = {}) => ({
        data: { id, object: "chat.completion.chunk", created: 0, model: b.model, choices: [{ index: 0, delta, finish_reason }], ...extra },
      });
      sse(
        res,
        [
          chunk(
            call ? { role: "assistant", content: null, tool_calls: [{ index: 0, ...call }] } : { role: "assistant", content: text },
            null,
          ),
          chunk({}, finish, { usage }),
        ],
        "[DONE]",
      );
    },
  };
}
