/**
 * The requests a session's model was sent, as the API bills them: each time the model produced
 * output, it was sent the whole conversation so far (since the last compaction). A run of output
 * items (text, tool calls) is one response, so one request; the tool results that came before it
 * are in that request and every later one.
 */
import type { CallItem, HistoryItem, ResultItem } from "./types";

export interface PlannedRequest {
  seq: number;
  ts: number;
  /** Starts over after a compaction. */
  reset: boolean;
  /** What this request added that is not a tool result: user and assistant text, tool calls. */
  texts: string[];
}

export interface PlannedCall {
  call: CallItem;
  result: ResultItem;
  /** The first request that carried the result; null when no request followed it. */
  requestSeq: number | null;
}

/** How a tool call reads inside a request (name and arguments), for its share of the prompt. */
export function callText(c: CallItem): string {
  return `${c.tool} ${typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {})}`;
}

export function planRequests(items: HistoryItem[]): { requests: PlannedRequest[]; calls: PlannedCall[]; unanswered: number } {
  const requests: PlannedRequest[] = [];
  const calls: PlannedCall[] = [];
  const open = new Map<string, CallItem>();
  let pendingTexts: string[] = [];
  let pendingCalls: PlannedCall[] = [];
  let reset = false;
  let inOutput = false;

  const startRequest = (ts: number) => {
    const seq = requests.length;
    requests.push({ seq, ts, reset, texts: pendingTexts });
    for (const c of pendingCalls) c.requestSeq = seq;
    pendingTexts = [];
    pendingCalls = [];
    reset = false;
  };

  for (const it of items) {
    if (it.type === "compact") {
      // What was sent before is gone from every later request; results not yet sent never were.
      pendingTexts = [];
      pendingCalls = [];
      reset = true;
      inOutput = false;
      continue;
    }
    const output = it.type === "call" || (it.type === "text" && it.dir === "output");
    if (output && !inOutput) startRequest(it.ts);
    inOutput = output;
    if (it.type === "text") pendingTexts.push(it.text);
    else if (it.type === "call") {
      open.set(it.callId, it);
      pendingTexts.push(callText(it));
    } else {
      const call = open.get(it.callId);
      if (!call) continue;
      open.delete(it.callId);
      const planned: PlannedCall = { call, result: it, requestSeq: null };
      calls.push(planned);
      pendingCalls.push(planned);
    }
  }
  return { requests, calls, unanswered: open.size };
}
