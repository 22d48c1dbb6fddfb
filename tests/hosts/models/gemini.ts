/**
 * The Gemini API as Gemini CLI speaks it to `GOOGLE_GEMINI_BASE_URL`:
 * POST /v1beta/models/<model>:streamGenerateContent?alt=sse (and :generateContent), function
 * declarations named `mcp_<server>_<tool>`, tool results as `functionResponse` parts.
 */
import type { ToolRef, TurnView } from "./policy";
import { sse, stringsIn, textParts, type WireAdapter } from "./server";

interface Part {
  text?: string;
  functionCall?: { name?: string };
  functionResponse?: { name?: string; response?: Record<string, unknown> };
}
interface Body {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  systemInstruction?: unknown;
  generationConfig?: { responseMimeType?: string };
}

const WRAP = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/;

/**
 * The text parts of a function response, in the shapes Gemini CLI uses for MCP results. Gemini
 * CLI 0.61 wraps an MCP tool's text in <untrusted_context> tags; the part is what is inside them.
 */
function responseParts(r: Record<string, unknown> | undefined): string[] {
  if (!r) return [];
  if (typeof r.output === "string") return [WRAP.exec(r.output)?.[1] ?? r.output];
  const content = textParts(r.content);
  return content.length ? content : stringsIn(r);
}

/** An adapter for MCP servers named `servers` (their tools arrive as mcp_<server>_<tool>). */
export function geminiAdapter(servers: string[]): WireAdapter {
  const baseOf = (name: string) => {
    for (const s of servers) if (name.startsWith(`mcp_${s}_`)) return name.slice(`mcp_${s}_`.length);
    return name;
  };
  return {
    accepts: (method, url) => method === "POST" && /\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)/.test(url),
    read(body, url) {
      const b = body as Body;
      const tools: ToolRef[] = (b.tools ?? [])
        .flatMap((t) => t.functionDeclarations ?? [])
        .flatMap((f) => (f.name ? [{ call: f.name, base: baseOf(f.name) }] : []));
      const results: TurnView["results"] = [];
      for (const c of b.contents ?? [])
        for (const p of c.parts ?? []) {
          if (!p.functionResponse) continue;
          const parts = responseParts(p.functionResponse.response);
          results.push({ tool: p.functionResponse.name ?? "?", parts, text: parts.join("\n") });
        }
      const main = !url.includes(":countTokens") && tools.length > 0 && b.generationConfig?.responseMimeType !== "application/json";
      return { view: { tools, results }, main, prompt: { systemInstruction: b.systemInstruction, contents: b.contents, tools: b.tools } };
    },
    write(res, action, { body, url, promptTokens }) {
      if (url.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ totalTokens: promptTokens }));
        return;
      }
      const b = body as Body;
      let part: Record<string, unknown>;
      if (action.type === "call") part = { functionCall: { name: action.tool.call, args: action.args } };
      else if (action.type === "side" && b.generationConfig?.responseMimeType === "application/json")
        part = { text: JSON.stringify({ reasoning: action.text, next_speaker: "user" }) };
      else part = { text: action.type === "discover" ? "" : action.text };
      const chunk = {
        candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: 8, totalTokenCount: promptTokens + 8 },
        modelVersion: "scripted",
      };
      if (url.includes(":streamGenerateContent")) sse(res, [{ data: chunk }]);
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(chunk));
    },
  };
}
