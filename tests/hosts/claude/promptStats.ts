/** Prompt size per request (chars and o200k tokens) as the scripted model received it, for the with/without table. */
import { createTokenCounter } from "../../../core/savings/tokens";
import { resultText, type LoggedRequest, type MessagesRequest } from "../support/anthropicModel";
import { history } from "./policy";

const tokens = createTokenCounter("o200k_base");
const cache = new Map<string, number>();
const count = (s: string) => {
  let n = cache.get(s);
  if (n === undefined) cache.set(s, (n = tokens.count(s)));
  return n;
};

/** The conversation as text: what the model reads of each message (text, tool calls, tool results). */
function conversation(req: MessagesRequest): string {
  return req.messages
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content
            .map((b) =>
              b.type === "text" ? b.text : b.type === "tool_use" ? JSON.stringify(b.input) : b.type === "tool_result" ? resultText(b) : "",
            )
            .join("\n"),
    )
    .join("\n");
}

export interface PromptStats {
  /** The call whose result this request brought, e.g. `Bash seq 1 40000`; "(prompt)" for the first. */
  label: string;
  /** The request body as sent, in chars. */
  requestChars: number;
  /** System prompt, tool definitions and conversation, in o200k tokens. */
  tokens: number;
  /** The conversation alone (what Spillway changes), in chars and tokens. */
  conversationChars: number;
  conversationTokens: number;
}

function label(req: MessagesRequest): string {
  const last = history(req).at(-1);
  if (!last) return "(prompt)";
  const i = last.input;
  const arg =
    i.command ??
    i.file_path?.toString().split("/").at(-1) ??
    (i.lines ? `${i.lines} lines` : undefined) ??
    i.pattern ??
    i.result_id ??
    (typeof i.text === "string" ? i.text.slice(0, 20) : undefined);
  return `${last.tool.replace(/^mcp__/, "")}${arg === undefined ? "" : ` ${String(arg)}`}`;
}

export function promptStats(r: LoggedRequest): PromptStats {
  const system = typeof r.body.system === "string" ? r.body.system : (r.body.system ?? []).map((b) => b.text ?? "").join("\n");
  const conv = conversation(r.body);
  const convTokens = count(conv);
  return {
    label: label(r.body),
    requestChars: r.raw.length,
    tokens: count(system) + count(JSON.stringify(r.body.tools ?? [])) + convTokens,
    conversationChars: conv.length,
    conversationTokens: convTokens,
  };
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** A table of the two runs, row by row where they made the same call, and totals. */
export function statsTable(withSpillway: PromptStats[], without: PromptStats[]): string {
  const rows: string[] = [
    "| # | request after | with Spillway: request chars | tokens (conversation) | without: request chars | tokens (conversation) |",
    "|---|---|---:|---:|---:|---:|",
  ];
  const rest = [...without];
  withSpillway.forEach((w, i) => {
    const j = rest.findIndex(
      (o) => o.label === w.label || (o.label.startsWith("fixture__") && o.label.replace("fixture__", "spillway__") === w.label),
    );
    const o = j >= 0 ? rest.splice(j, 1)[0] : undefined;
    rows.push(
      `| ${i + 1} | ${w.label} | ${fmt(w.requestChars)} | ${fmt(w.tokens)} (${fmt(w.conversationTokens)}) | ${o ? fmt(o.requestChars) : "—"} | ${o ? `${fmt(o.tokens)} (${fmt(o.conversationTokens)})` : "—"} |`,
    );
  });
  for (const o of rest) rows.push(`| – | ${o.label} | — | — | ${fmt(o.requestChars)} | ${fmt(o.tokens)} (${fmt(o.conversationTokens)}) |`);
  const sum = (xs: PromptStats[], k: keyof PromptStats) => xs.reduce((a, x) => a + (x[k] as number), 0);
  rows.push(
    `| | **total over ${withSpillway.length} / ${without.length} requests** | ${fmt(sum(withSpillway, "requestChars"))} | ${fmt(sum(withSpillway, "tokens"))} (${fmt(sum(withSpillway, "conversationTokens"))}) | ${fmt(sum(without, "requestChars"))} | ${fmt(sum(without, "tokens"))} (${fmt(sum(without, "conversationTokens"))}) |`,
  );
  return rows.join("\n");
}
