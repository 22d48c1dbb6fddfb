/**
 * An MCP tool's `tool_response` in Claude Code: the content array, or a string (the JSON of
 * structuredContent when the tool has an output schema). These helpers take the text out of one
 * and put a replacement back in the same shape. Built-in tools: builtinOutput.ts.
 */

type Json = unknown;

interface ContentItem {
  type: string;
  text?: string;
  [k: string]: unknown;
}

function isContentArray(v: Json): v is ContentItem[] {
  return Array.isArray(v) && v.every((c) => c && typeof c === "object" && typeof (c as ContentItem).type === "string");
}

/** The text of an MCP tool's response: a string, a content array, or a result object with `content`. */
export function mcpText(response: Json): { text: string; isError: boolean } {
  if (typeof response === "string") return { text: response, isError: false };
  const obj = response && typeof response === "object" && !Array.isArray(response) ? (response as Record<string, unknown>) : null;
  const content = obj && isContentArray(obj.content) ? obj.content : isContentArray(response) ? response : null;
  if (!content) return { text: JSON.stringify(response ?? null), isError: false };
  const text = content.flatMap((c) => (c.type === "text" && typeof c.text === "string" ? [c.text] : [])).join("\n");
  return { text, isError: obj?.isError === true };
}

/** The same shape as `response`, its text items replaced by `text` (non-text items kept). */
export function replaceMcpText(response: Json, text: string): Json {
  const item = { type: "text", text };
  if (typeof response === "string") return text;
  if (isContentArray(response)) return [item, ...response.filter((c) => c.type !== "text")];
  const obj = response && typeof response === "object" ? (response as Record<string, unknown>) : {};
  const rest = isContentArray(obj.content) ? obj.content.filter((c) => c.type !== "text") : [];
  const out: Record<string, unknown> = { ...obj, content: [item, ...rest] };
  // A replaced result must not carry structured data the text no longer matches.
  delete out.structuredContent;
  return out;
}

/** `mcp__<server>__<tool>` → its parts; built-in tools have no server. */
export function splitToolName(name: string): { server: string | null; tool: string } {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1]!, tool: m[2]! } : { server: null, tool: name };
}

/**
 * An MCP result over Claude Code's token limit reaches PostToolUse as this message instead of the
 * result (Claude Code 2.1.197 saved the result to the file it names). The chars are the result's.
 */
const SAVED =
  /^Error: result \(([\d,]+) characters across [\d,]+ lines?\) exceeds maximum allowed tokens\. Output has been saved to (\/\S+?)\.\n/;

/** The file and size of an MCP result Claude Code saved instead of passing on, when `response` says so. */
export function mcpSavedOutput(response: Json): { path: string; chars: number } | null {
  const m = typeof response === "string" ? SAVED.exec(response) : null;
  return m ? { path: m[2]!, chars: Number(m[1]!.replaceAll(",", "")) } : null;
}
