/**
 * The one fixed policy every scripted model follows, whatever the host: call a big upstream tool,
 * read the handle and fetch from it, call the tool again and recall the stub, then hand the
 * content to another tool (by `spill:` reference when Spillway is there, by value when not).
 * It is a pure function of what the host sent, so a host that retries a request gets the same answer.
 */

/** A tool as the host offers it: the name the model must call and the MCP tool's own name. */
export interface ToolRef {
  /** What the adapter needs to render a call (a function name, or namespace + name for Codex). */
  call: string;
  namespace?: string;
  /** The upstream MCP tool's name, e.g. `big_log`. */
  base: string;
}

/** One tool result as the model got it: its text parts (hosts add their own) and their join. */
export interface ToolResult {
  tool: string;
  parts: string[];
  text: string;
}

/** What the model has seen so far, in host-neutral terms. */
export interface TurnView {
  tools: ToolRef[];
  /** Tool results in the order the host sent them, as the text the model received. */
  results: ToolResult[];
  /** The host defers tools behind a search the model must call first (Codex `tool_search`). */
  discoverable?: boolean;
}

export type Step = "discover" | "big" | "fetch" | "repeat" | "recall" | "deliver" | "final";

export type Action =
  | { type: "call"; step: Step; tool: ToolRef; args: Record<string, unknown> }
  | { type: "discover"; step: "discover"; query: string }
  | { type: "final"; step: "final"; text: string }
  | { type: "stuck"; step: Step; text: string };

/** The arguments of the big call, fixed so the run is the same with and without Spillway. */
export const BIG_ARGS = { lines: 400, seed: "host" } as const;
export const GREP_PATTERN = "ERROR step 13:";

const HANDLE_ID = /rescuer_fetch\(id="([0-9a-f]{12})"/;
const STUB_ID = /recall_result\(result_id="([0-9a-f]{12})"\)/;

/** The blob id of a Spillway handle in a tool result, if the result is one. */
export function handleId(text: string): string | undefined {
  return /PREVIEW, NOT the full output/.test(text) ? HANDLE_ID.exec(text)?.[1] : undefined;
}

/** The blob id a dedup stub points to, if the result is one. */
export function stubId(text: string): string | undefined {
  return /returned the same [\d,]+ chars as an earlier call/.test(text) ? STUB_ID.exec(text)?.[1] : undefined;
}

function find(view: TurnView, base: string): ToolRef | undefined {
  return view.tools.find((t) => t.base === base);
}

/** The next action for a request, replaying the policy over the results it already holds. */
export function nextAction(view: TurnView): Action {
  const big = find(view, "big_log");
  const digest = find(view, "digest");
  const fetch = find(view, "rescuer_fetch");
  const recall = find(view, "recall_result");
  if ((!big || !digest) && view.discoverable)
    return { type: "discover", step: "discover", query: "big_log digest rescuer_fetch recall_result" };
  if (!big || !digest)
    return { type: "stuck", step: "big", text: `policy: no big_log/digest tool among ${view.tools.map((t) => t.call).join(", ")}` };

  const results = view.results;
  let i = 0;
  const take = () => results[i++];

  const first = take();
  if (!first) return { type: "call", step: "big", tool: big, args: { ...BIG_ARGS } };
  const id = handleId(first.text);
  if (id && fetch) {
    if (!take()) return { type: "call", step: "fetch", tool: fetch, args: { id, mode: "grep", pattern: GREP_PATTERN } };
  }
  const second = take();
  if (!second) return { type: "call", step: "repeat", tool: big, args: { ...BIG_ARGS } };
  const stub = stubId(second.text);
  if (stub && recall) {
    if (!take()) return { type: "call", step: "recall", tool: recall, args: { result_id: stub } };
  }
  const delivered = take();
  if (!delivered) {
    // Without Spillway the model can only pass what it holds, by value.
    const text = id ? `spill:${id}` : first.text;
    return { type: "call", step: "deliver", tool: digest, args: { text } };
  }
  return { type: "final", step: "final", text: `Done. digest answered: ${delivered.text.slice(0, 200)}` };
}
