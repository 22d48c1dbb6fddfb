/**
 * OpenAI Responses API with SSE streaming, as Codex speaks it to a custom `model_provider`
 * (`wire_api = "responses"`): POST /v1/responses, MCP tools offered as `namespace` entries
 * (`mcp__<server>`), tool results sent back as `function_call_output` input items.
 */
import type { ToolRef, TurnView } from "./policy";
import { sse, textParts, type WireAdapter } from "./server";

interface Item {
  type?: string;
  tools?: Tool[];
  name?: string;
  namespace?: string;
  call_id?: string;
  output?: unknown;
}
interface Tool {
  type?: string;
  name?: string;
  tools?: Tool[];
}

function toolsOf(tools: Tool[] = []): ToolRef[] {
  const out: ToolRef[] = [];
  for (const t of tools) {
    if (t.type === "function" && t.name) out.push({ call: t.name, base: t.name });
    if (t.type === "namespace" && t.name?.startsWith("mcp__"))
      for (const f of t.tools ?? []) if (f.name) out.push({ call: f.name, namespace: t.name, base: f.name });
  }
  return out;
}

function resultsOf(input: Item[] = []): TurnView["results"] {
  const names = new Map<string, string>();
  const results: TurnView["results"] = [];
  for (const item of input) {
    if (item.type === "function_call" && item.call_id)
      names.set(item.call_id, item.namespace ? `${item.namespace}.${item.name}` : String(item.name));
    if (item.type === "function_call_output") {
      const parts = typeof item.output === "string" ? [item.output] : textParts(item.output);
      results.push({ tool: names.get(item.call_id ?? "") ?? "?", parts, text: parts.join("\n") });
    }
  }
  return results;
}

export const responsesAdapter: WireAdapter = {
  accepts: (method, url) => method === "POST" && url.split("?")[0]!.endsWith("/responses"),
  read(body) {
    const b = body as { instructions?: string; input?: Item[]; tools?: Tool[] };
    // Tools a tool_search loaded are callable from then on, beside the ones offered upfront.
    const loaded = (b.input ?? []).flatMap((i) => (i.type === "tool_search_output" ? (i.tools ?? []) : []));
    const searched = (b.input ?? []).some((i) => i.type === "tool_search_output");
    const view = {
      tools: toolsOf([...(b.tools ?? []), ...loaded]),
      results: resultsOf(b.input),
      discoverable: !searched && (b.tools ?? []).some((t) => t.type === "tool_search"),
    };
    return { view, main: (b.tools?.length ?? 0) > 0, prompt: { instructions: b.instructions, input: b.input, tools: b.tools } };
  },
  write(res, action, { n, promptTokens }) {
    const id = `resp_${n}`;
    let item: Record<string, unknown>;
    if (action.type === "discover") {
      item = {
        type: "tool_search_call",
        id: `ts_${n}`,
        call_id: `call_${n}`,
        execution: "client",
        status: "completed",
        arguments: { query: action.query, limit: 20 },
      };
    } else if (action.type === "call") {
      item = {
        type: "function_call",
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: action.tool.call,
        arguments: JSON.stringify(action.args),
        status: "completed",
      };
      if (action.tool.namespace) item.namespace = action.tool.namespace;
    } else {
      item = {
        type: "message",
        id: `msg_${n}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: action.text, annotations: [] }],
      };
    }
    const usage = {
      input_tokens: promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 8,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: promptTokens + 8,
    };
    sse(res, [
      { event: "response.created", data: { type: "response.created", response: { id, status: "in_progress" } } },
      {
        event: "response.output_item.added",
        data: { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress" } },
      },
      { event: "response.output_item.done", data: { type: "response.output_item.done", output_index: 0, item } },
      { event: "response.completed", data: { type: "response.completed", response: { id, status: "completed", output: [item], usage } } },
    ]);
  },
};
