/**
 * A scripted agent for the economy bench. Each turn is a question and the tool calls a model
 * would make for it; the agent then checks whether the answer reached it (is in what it was
 * given), and if not, reads more the way the handle or stub tells it to: one rescuer_fetch
 * with the turn's lookup, then recall_result (or mode=full) as a last resort. Every request
 * re-sends the whole conversation; its prompt tokens are counted with o200k.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { Connection, Mode, ServerSpec } from "./connections";

export interface Call {
  tool: string;
  args: Record<string, unknown>;
}

/** How the model reads more of a stored result when the answer is not in what it got. */
export type Lookup =
  | { mode: "grep"; pattern: string }
  | { mode: "search"; query: string }
  | { mode: "chain"; pattern: string; context: number }
  | { mode: "query"; expression: string }
  | { mode: "range"; start: number; count: number };

export interface Turn {
  question: string;
  calls: Call[];
  /**
   * What must reach the model: every item, where an item is a string or a list of equivalent
   * renderings ("× test" or "FAIL  test"); a function derives the items from the turn's raw results.
   */
  answer: Answer[] | ((raw: string) => Answer[]);
  lookup?: Lookup;
}

export type Answer = string | string[];

export interface Session {
  name: string;
  description: string;
  /** Starts the session's MCP servers' world (temp dirs, files); returns its servers and a cleanup. */
  setup(): Promise<{ servers: Record<string, ServerSpec>; cleanup(): void }>;
  turns: Turn[];
}

export interface SessionRun {
  requests: number;
  /** Prompt tokens over all requests, without the system prompt. */
  promptTokens: number;
  /** The largest single request's prompt tokens, without the system prompt (what a host's context window must hold). */
  peakRequest: number;
  toolDefTokens: number;
  questions: number;
  answered: number;
  fetches: number;
  recalls: number;
  /** Raw text of each turn's tool results (kept from the no-interception run). */
  raw: string[];
  unanswered: string[];
  /** Where the prompt tokens went (system prompt excluded): each message's tokens times the requests that re-sent it, by part. */
  byPart: Record<string, number>;
}

/** SPILLWAY_BENCH_TRACE=1 prints what the model got on every call. */
const TRACE = process.env.SPILLWAY_BENCH_TRACE === "1";
const kindOf = (t: string) =>
  t.includes("This is a PREVIEW")
    ? "handle"
    : t.includes("except the lines below") || t.includes("differ only in timings")
      ? "near-stub"
      : ECHO.test(t)
        ? "echo-stub"
        : isStub(t)
          ? "stub"
          : "full";

/** Tokens a chat format adds per message (role, separators), as OpenAI documents for its models. */
const PER_MESSAGE = 4;
const PER_REQUEST = 3;

/** What the model is given of a tool result: its content items (text as is, others as JSON). */
export function resultText(r: CallToolResult): string {
  return (r.content ?? []).map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");
}

const ECHO = /JSON equal to (?:the `(\w+)` argument|the arguments) of this call/;
const ID_IN = /recall_result\(result_id="([0-9a-f]{12})"\)|rescuer_fetch\(id="([0-9a-f]{12})"/;
// A stub of a result given in full, or as a preview (too big for recall_result, so it names rescuer_fetch only).
const isStub = (t: string) =>
  t.startsWith("[spillway: ") &&
  !t.includes("This is a PREVIEW") &&
  (t.includes("recall_result(result_id=") || / as an earlier call[,;]/.test(t));

export async function runSession(session: Session, mode: Mode, conn: Connection, rawRun: string[] | null): Promise<SessionRun> {
  const fixed = countTokens(JSON.stringify(conn.tools)) + conn.instructions.reduce((n, i) => n + countTokens(i), 0);
  const convo: { text: string; tokens: number; tool: boolean }[] = [];
  const run: SessionRun = {
    requests: 0,
    promptTokens: 0,
    peakRequest: 0,
    toolDefTokens: countTokens(JSON.stringify(conn.tools)),
    questions: 0,
    answered: 0,
    fetches: 0,
    recalls: 0,
    raw: [],
    unanswered: [],
    byPart: {},
  };
  let convoTokens = 0;
  // Tokens in the conversation per part, so each request can charge them where they belong.
  const parts: Record<string, number> = {};
  const push = (text: string, part: string, tool = false) => {
    const tokens = countTokens(text) + PER_MESSAGE;
    convo.push({ text, tokens, tool });
    convoTokens += tokens;
    parts[part] = (parts[part] ?? 0) + tokens;
  };
  const charge = (part: string, n: number) => (run.byPart[part] = (run.byPart[part] ?? 0) + n);
  const request = () => {
    run.requests++;
    run.promptTokens += fixed + convoTokens + PER_REQUEST;
    run.peakRequest = Math.max(run.peakRequest, fixed + convoTokens + PER_REQUEST);
    charge("tool defs + instructions", fixed + PER_REQUEST);
    for (const [part, n] of Object.entries(parts)) charge(part, n);
  };
  const callTool = async (name: string, args: Record<string, unknown>): Promise<string> => {
    request(); // the request whose answer is this tool call
    push(JSON.stringify({ tool: name, arguments: args }), "calls");
    const text = resultText(await conn.call(name, args));
    push(text, name === "rescuer_fetch" || name === "recall_result" ? name : kindOf(text), true);
    if (TRACE)
      console.log(
        `      ${mode} ${name} ${JSON.stringify(args).slice(0, 70)} -> ${kindOf(text)} ${text.length} chars, ${convo.at(-1)!.tokens} tokens`,
      );
    return text;
  };

  for (const [t, turn] of session.turns.entries()) {
    run.questions++;
    push(turn.question, "questions + answers");
    const before = convo.length;
    const got: string[] = [];
    for (const c of turn.calls) got.push(await callTool(c.tool, c.args));
    run.raw.push(got.join("\n"));
    // An echo stub says the result equals what the agent itself sent in that call: it has that.
    const sent = got.flatMap((g, i) => {
      const m = ECHO.exec(g);
      if (!m) return [];
      const args = turn.calls[i]!.args;
      return [JSON.stringify(m[1] ? args[m[1]] : args, null, 2)];
    });
    const answer = typeof turn.answer === "function" ? turn.answer((rawRun ?? run.raw)[t]!) : turn.answer;
    // What the model may rely on: this turn's results, and earlier ones only when a stub
    // told it the content is as before.
    const visible = () => {
      const from = got.some((g) => isStub(g) && !ECHO.test(g)) ? 0 : before;
      const given = convo
        .slice(from)
        .filter((m) => m.tool)
        .map((m) => m.text);
      return [...given, ...sent].join("\n");
    };
    const reached = () => {
      const seen = visible();
      return answer.every((a) => (typeof a === "string" ? [a] : a).some((alt) => seen.includes(alt)));
    };
    if (!reached() && mode !== "none") {
      const id = got
        .map((g) => ID_IN.exec(g))
        .filter(Boolean)
        .map((m) => m![1] ?? m![2])
        .pop();
      if (id && mode !== "exact") {
        const lookup = turn.lookup ?? { mode: "search", query: turn.question };
        await callTool("rescuer_fetch", { id, ...lookup });
        run.fetches++;
      }
      if (id && !reached()) {
        await callTool("recall_result", { result_id: id });
        run.recalls++;
      }
    }
    const ok = reached();
    if (ok) run.answered++;
    else run.unanswered.push(`${session.name} turn ${t + 1}: ${turn.question}`);
    request(); // the request whose answer is the reply to the user
    push(`Answer: ${answer.map((a) => (typeof a === "string" ? a : a[0])).join("; ")}`, "questions + answers");
  }
  return run;
}
