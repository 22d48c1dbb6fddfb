/**
 * The scripted model's policy for the Claude Code tests: a fixed list of steps, each deciding its
 * tool call from what the earlier calls returned (as the model received them), so the same policy
 * runs with and without Spillway. Requests that are not the main conversation (a subagent, the
 * WebFetch summary) get a short text answer.
 */
import { resultText, type Block, type MessagesRequest, type Policy, type Reply } from "../support/anthropicModel";

/** One earlier call and what the model got back for it. */
export interface Observed {
  tool: string;
  input: Record<string, unknown>;
  text: string;
  isError: boolean;
}

export type Call = { tool: string; input: Record<string, unknown> };
/** A step: its call given what came back so far, or null to skip it. */
export type Step = (seen: Observed[]) => Call | null;

/** The calls of a conversation paired with their results, in order. */
export function history(req: MessagesRequest): Observed[] {
  const uses: Block[] = [];
  const results = new Map<string, Block>();
  for (const m of req.messages) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (m.role === "assistant" && b.type === "tool_use") uses.push(b);
      if (m.role === "user" && b.type === "tool_result" && b.tool_use_id) results.set(b.tool_use_id, b);
    }
  }
  return uses.flatMap((u) => {
    const r = results.get(u.id!);
    return r
      ? [{ tool: u.name!, input: (u.input ?? {}) as Record<string, unknown>, text: resultText(r), isError: r.is_error === true }]
      : [];
  });
}

/** Is this request the main conversation (it offers the built-in tools and Spillway's or the upstream's)? */
const isMain = (req: MessagesRequest) => (req.tools ?? []).some((t) => t.name === "Bash");

/** Answers a request that is not the policy's own conversation (a subagent's, a server tool's), or null. */
export type SidePolicy = (req: MessagesRequest) => Reply | null;

/**
 * The policy: walks the steps, replaying the ones already answered in the conversation, and makes
 * the first call not yet made. When no step is left it answers `final`. `side` answers first.
 */
export function scripted(steps: Step[], side?: SidePolicy, final = "Done."): Policy {
  return (req): Reply => {
    const aside = side?.(req);
    if (aside) return aside;
    if (!isMain(req)) return { text: "Noted." };
    const seen = history(req);
    let k = 0;
    for (const step of steps) {
      const call = step(seen.slice(0, k));
      if (!call) continue;
      if (k < seen.length) {
        k++;
        continue;
      }
      return call;
    }
    return { text: final };
  };
}

/** The blob id a handle names ("stored as <id>"), or a stub ("recall_result(result_id=\"<id>\")"). */
export function handleId(text: string): string | null {
  return /stored as ([0-9a-f]{12})/.exec(text)?.[1] ?? null;
}
export function stubId(text: string): string | null {
  return /recall_result\(result_id="([0-9a-f]{12})"\)/.exec(text)?.[1] ?? null;
}
