/**
 * The replay's arithmetic, the way APIs bill it: every request sends the whole conversation since
 * the last compaction again, so a call's result is paid once per request that carries it. The
 * prompt tokens of a request are its own text plus every earlier request's text plus every result
 * carried so far; a call's saving is its token difference times the requests that carried it.
 */
import type { HistoryCall, HistoryRequest } from "../store/read/readModel";
import type { PolicyTotals, ReplayReport, ReplayScope, ReplaySessionReport, SessionInput, ToolSavings } from "./types";

export type { PolicyTotals, ReplayReport, ReplayScope, ReplaySessionReport, SessionInput, ToolSavings };

/** For each request, how many requests (it included) carry what it added: up to the next reset. */
export function carriedCounts(requests: HistoryRequest[]): Map<number, number> {
  const out = new Map<number, number>();
  let end = requests.length;
  for (let i = requests.length - 1; i >= 0; i--) {
    out.set(requests[i]!.seq, end - i);
    if (requests[i]!.reset) end = i;
  }
  return out;
}

/** Prompt tokens of each request: a running sum, restarted at each reset. */
function promptTokens(requests: HistoryRequest[], calls: HistoryCall[], tokensOf: (i: number) => number): number[] {
  const bySeq = new Map<number, number>();
  calls.forEach((c, i) => {
    if (c.requestSeq !== null) bySeq.set(c.requestSeq, (bySeq.get(c.requestSeq) ?? 0) + tokensOf(i));
  });
  let running = 0;
  return requests.map((r) => {
    if (r.reset) running = 0;
    running += r.textTokens + (bySeq.get(r.seq) ?? 0);
    return running;
  });
}

export function sessionReport(s: SessionInput, includeText: boolean): ReplaySessionReport {
  const carried = carriedCounts(s.requests);
  const asHappened = promptTokens(s.requests, s.calls, (i) => s.asHappened[i]!);
  const perPolicy = s.outcomes.map((o) => promptTokens(s.requests, s.calls, (i) => o[i]!.tokens));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    id: s.id,
    agent: s.agent,
    project: s.project,
    model: s.model,
    title: s.title,
    requests: s.requests.map((r, i) => ({ seq: r.seq, ts: r.ts, asHappened: asHappened[i]!, policies: perPolicy.map((p) => p[i]!) })),
    calls: s.calls.map((c, i) => ({
      id: c.id,
      ts: c.ts,
      tool: c.tool,
      requestSeq: c.requestSeq,
      carried: c.requestSeq === null ? 0 : (carried.get(c.requestSeq) ?? 0),
      resultChars: c.returnedChars,
      hostCut: c.hostCut,
      asHappenedTokens: s.asHappened[i]!,
      policies: s.outcomes.map((o) => {
        const x = o[i]!;
        return {
          action: x.action,
          tokens: x.tokens,
          ...(x.reason ? { reason: x.reason } : {}),
          ...(includeText && x.text !== undefined ? { text: x.text } : {}),
        };
      }),
    })),
    promptTokens: { asHappened: sum(asHappened), policies: perPolicy.map(sum) },
  };
}

/** Where the savings come from: per tool, the billed tokens of its results as it happened and under each policy. */
export function toolSavings(sessions: ReplaySessionReport[], policies: number): ToolSavings[] {
  const by = new Map<string, ToolSavings>();
  for (const s of sessions) {
    for (const c of s.calls) {
      let t = by.get(c.tool);
      if (!t) {
        t = {
          tool: c.tool,
          calls: 0,
          asHappened: 0,
          policies: Array.from({ length: policies }, () => ({ billed: 0, saved: 0, handles: 0, stubs: 0, nearStubs: 0 })),
        };
        by.set(c.tool, t);
      }
      t.calls++;
      t.asHappened += c.asHappenedTokens * c.carried;
      c.policies.forEach((p, i) => {
        const row = t.policies[i]!;
        row.billed += p.tokens * c.carried;
        row.saved += (c.asHappenedTokens - p.tokens) * c.carried;
        if (p.action === "handle") row.handles++;
        if (p.action === "stub") row.stubs++;
        if (p.action === "near_stub") row.nearStubs++;
      });
    }
  }
  return [...by.values()].sort((a, b) => (b.policies[0]?.saved ?? 0) - (a.policies[0]?.saved ?? 0) || b.asHappened - a.asHappened);
}
