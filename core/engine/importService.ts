/**
 * Stores an agent's session from its own history as an imported session: each tool call with its
 * arguments and result, through the same store, labels, encryption, search index and token counts
 * as a live result, marked imported (read-only) with its agent, project, model and time. A call
 * already imported (same agent, session and call id) is left as it is, so a re-import adds only
 * what is new.
 */
import { canonicalJson } from "../dedup/dedup";
import { planRequests } from "../history/requests";
import type { HistorySession } from "../history/types";
import { detectKind } from "../rescue/kind";
import { labelResult } from "../sensitivity/labels";
import { maskSecrets } from "../sensitivity/secrets";
import { HistoryStore } from "../store/history";
import { countLines } from "../text/lines";
import { maxLabel, type Label } from "../vocabulary";
import type { EngineParts } from "./parts";

/** Results up to this size are kept in the call row (unless credential-labelled: those go encrypted into a blob). */
const INLINE_MAX = 4_000;

export interface ImportSessionResult {
  sessionId: string;
  added: number;
  /** Calls already imported before. */
  kept: number;
  /** Calls the history has no result for (cut off mid-call). */
  unanswered: number;
  requests: number;
}

/** The Spillway session id of an imported session: never one a live session can have. */
export function importedSessionId(agent: string, sourceId: string): string {
  return `import:${agent}:${sourceId}`;
}

const masked = (s: string) => maskSecrets(s).text;

export function importSession(p: EngineParts, s: HistorySession): ImportSessionResult {
  const history = new HistoryStore(p.store);
  const sessionId = importedSessionId(s.agent, s.sourceId);
  const plan = planRequests(s.items);
  const lastAt = s.items.reduce((m, it) => Math.max(m, it.ts), s.startedAt);
  let added = 0;
  let kept = 0;
  const added_: { callId: number; result: string; given: string }[] = [];
  const toIndex: { id: string; text: string }[] = [];

  p.store.transaction(() => {
    history.upsertSession({
      id: sessionId, agent: s.agent, project: s.project, model: s.model, title: s.title ? masked(s.title) : null,
      source: s.source, startedAt: s.startedAt, lastAt,
    });
    history.replaceRequests(sessionId, plan.requests.map((r) => {
      const text = r.texts.join("\n");
      return { seq: r.seq, ts: r.ts, reset: r.reset, textChars: text.length, textTokens: r.texts.reduce((n, t) => n + p.tokens.count(t), 0) };
    }));
    for (const { call, result, requestSeq } of plan.calls) {
      const labelOf = (text: string) => {
        const own = labelResult({ tool: call.tool, args: call.args, content: text, toolLabels: p.config.sensitivity.toolLabels }).label;
        return result.given === text ? own : maxLabel(own, labelResult({ tool: call.tool, args: {}, content: result.given, toolLabels: {} }).label);
      };
      const store = (text: string, label: Label) => {
        const { kind, shape } = detectKind(text);
        const { meta } = p.store.put(text, { tool: call.tool, server: call.server, sessionId, kind, shape, lines: countLines(text), label });
        p.sessions.recordHeld(sessionId, meta.id, 0, p.store.now);
        return { id: meta.id, text };
      };
      const sourceKey = `${s.agent}:${s.sourceId}:${call.callId}`;
      const text = result.result;
      const existing = history.callBySourceKey(sourceKey);
      if (existing !== null) {
        history.setRequestSeq(existing.id, requestSeq);
        // Content the store swept since the last import comes back; the call itself stays as it was.
        if (existing.blobId && p.store.meta(existing.blobId)?.state === "tombstoned" && p.store.idFor(text) === existing.blobId) {
          toIndex.push(store(text, labelOf(text)));
        }
        kept++;
        continue;
      }
      const label = labelOf(text);
      let blobId: string | null = null;
      if (text.length > INLINE_MAX || label === "credential") {
        const b = store(text, label);
        blobId = b.id;
        toIndex.push(b);
      }
      const ts = call.ts || result.ts || s.startedAt;
      const callId = p.ledger.insertCall({
        sessionId, ts, tool: call.tool, server: call.server,
        argsJson: masked(canonicalJson(call.args ?? {})), outcome: "passthrough", blobId, isError: result.isError,
        returnedChars: text.length, givenChars: result.given.length,
        rawText: blobId === null ? masked(text) : null,
        givenText: result.given === text ? null : masked(result.given),
      });
      history.markImported(callId, {
        sourceKey, model: s.models?.get(call.callId) ?? s.model, requestSeq,
        hostCut: result.hostCut === "persisted" && result.persistedMissing ? "persisted_missing" : result.hostCut,
      });
      added_.push({ callId, result: text, given: result.given });
      added++;
    }
    p.ledger.insertEvent({ ts: p.store.now, type: "import", sessionId, data: { agent: s.agent, added, kept, requests: plan.requests.length } });
  }, "immediate");

  for (const c of added_) p.countCallTokens(c.callId, c.result, c.given);
  for (const b of toIndex) p.scheduleIndex(b.id, b.text);
  if (added > 0) p.emit({ type: "session", sessionId, change: "import" });
  return { sessionId, added, kept, unanswered: plan.unanswered, requests: plan.requests.length };
}
