/**
 * The replay lab: for one imported session, an agent's, a project's or all of them, what the
 * model would have received under one or more policies beside what it got, request by request,
 * with the tokens counted by the configured tokenizer. Reads the store, writes nothing.
 */
import type { Engine } from "../engine/engineApi";
import { ErrorCode, SpillwayError } from "../errors";
import { throwIfAborted } from "../history/jsonLines";
import { sessionReport, toolSavings } from "../replay/report";
import type { PolicyTotals, ReplayPolicy, ReplayReport, ReplayScope, ReplaySessionReport, SessionInput } from "../replay/types";
import { simulateSession, type ReplayCallInput } from "../replay/simulate";

export type { PolicyTotals, ReplayReport, ReplayScope };
import { createTokenCounter } from "../savings/tokens";

export interface ReplayOptions {
  scope: ReplayScope;
  policies: ReplayPolicy[];
  /** Keep the texts of handles and stubs in the report (for the inspector's side-by-side view). */
  includeText?: boolean;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
}

const yieldTurn = () => new Promise<void>((r) => setImmediate(r));

export async function replayHistory(engine: Engine, o: ReplayOptions): Promise<ReplayReport> {
  if (o.policies.length === 0) throw new SpillwayError(ErrorCode.BadArgument, "a replay needs at least one policy", { path: "policies" });
  const reader = engine.reader;
  const refs = reader.importedSessions(o.scope);
  if (o.scope.sessionId && refs.length === 0) {
    throw new SpillwayError(
      ErrorCode.NotFound,
      `no imported session ${o.scope.sessionId}: run spillway import first, or pick one from the list`,
      { path: "session" },
    );
  }
  const tokens = createTokenCounter(engine.config.tokenizer);
  const sessions: ReplaySessionReport[] = [];
  let contentGone = 0;
  for (const [n, ref] of refs.entries()) {
    throwIfAborted(o.signal);
    o.onProgress?.(n, refs.length);
    const requests = reader.historyRequests(ref.id);
    const calls = reader.historyCalls(ref.id);
    const generationOf = new Map<number, number>();
    let g = 0;
    for (const r of requests) {
      if (r.reset) g++;
      generationOf.set(r.seq, g);
    }
    const inputs: ReplayCallInput[] = calls.map((c) => {
      const texts = reader.callTexts(c.id);
      if (texts.result === null) contentGone++;
      const givenTokens = c.givenTokens ?? (texts.given === null ? 0 : tokens.count(texts.given));
      return {
        id: c.id,
        tool: c.tool,
        argsJson: c.argsJson,
        isError: c.isError,
        result: texts.result,
        label: c.blobId ? (reader.meta(c.blobId)?.label ?? "public") : "public",
        blobId: c.blobId,
        givenChars: c.givenChars,
        givenTokens,
        generation: c.requestSeq === null ? g : (generationOf.get(c.requestSeq) ?? 0),
      };
    });
    const input: SessionInput = {
      id: ref.id,
      agent: ref.agent,
      project: ref.project,
      model: ref.model,
      title: ref.title,
      requests,
      calls,
      asHappened: inputs.map((c) => c.givenTokens),
      outcomes: o.policies.map((p) => simulateSession(inputs, p, tokens)),
    };
    sessions.push(sessionReport(input, o.includeText === true));
    await yieldTurn();
  }
  o.onProgress?.(refs.length, refs.length);
  const asHappened = sessions.reduce((a, s) => a + s.promptTokens.asHappened, 0);
  const policies: PolicyTotals[] = o.policies.map((p, i) => {
    const promptTokens = sessions.reduce((a, s) => a + s.promptTokens.policies[i]!, 0);
    const count = (action: string) => sessions.reduce((a, s) => a + s.calls.filter((c) => c.policies[i]!.action === action).length, 0);
    return {
      name: p.name,
      promptTokens,
      saved: asHappened - promptTokens,
      savedShare: asHappened ? (asHappened - promptTokens) / asHappened : 0,
      handles: count("handle"),
      stubs: count("stub"),
      nearStubs: count("near_stub"),
      passthrough: count("passthrough"),
    };
  });
  return {
    scope: o.scope,
    tokenizer: tokens.name,
    policies: o.policies,
    totals: {
      sessions: sessions.length,
      requests: sessions.reduce((a, s) => a + s.requests.length, 0),
      calls: sessions.reduce((a, s) => a + s.calls.length, 0),
      contentGone,
      asHappened,
      policies,
    },
    tools: toolSavings(sessions, o.policies.length),
    sessions,
  };
}
