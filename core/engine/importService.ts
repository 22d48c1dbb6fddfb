/**
 * Stores an agent's session from its own history as an imported session: each tool call with its
 * arguments and result, through the same store, labels, encryption, search index and token counts
 * as a live result, marked imported (read-only) with its agent, project, model and time. A call
 * already imported (same agent, session and call id) is left as it is, so a re-import adds only
 * what is new.
 *
 * The scans (labels, kinds, token counts of the requests' text) run before any write lock is
 * taken, and the calls are written in small transactions: an agent's `spillway mcp` on the same
 * store waits for one batch at most, never for a whole history.
 */
import { canonicalJson } from "../dedup/dedup";
import { ErrorCode, SpillwayError } from "../errors";
import { planRequests, type PlannedCall } from "../history/requests";
import type { HistorySession } from "../history/types";
import { detectKind } from "../rescue/kind";
import { labelResult } from "../sensitivity/labels";
import { maskSecrets } from "../sensitivity/secrets";
import { HistoryStore } from "../store/history";
import { countLines } from "../text/lines";
import { maxLabel, type Kind, type Label } from "../vocabulary";
import type { EngineParts } from "./parts";

/** Results up to this size are kept in the call row (unless credential-labelled: those go encrypted into a blob). */
const INLINE_MAX = 4_000;
/** Calls written per transaction. */
const BATCH = 25;

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

interface Prepared {
  planned: PlannedCall;
  sourceKey: string;
  label: Label;
  /** Set when the result goes into a blob. */
  blob: { kind: Kind; shape: string; lines: number } | null;
}

/** What storing one call needs, computed without the store: its label and, for a blob, kind and lines. */
function prepare(p: EngineParts, planned: PlannedCall, sourceKey: string): Prepared {
  const { call, result } = planned;
  const text = result.result;
  let label = labelResult({ tool: call.tool, args: call.args, content: text, toolLabels: p.config.sensitivity.toolLabels }).label;
  if (result.given !== text)
    label = maxLabel(label, labelResult({ tool: call.tool, args: {}, content: result.given, toolLabels: {} }).label);
  const blob = text.length > INLINE_MAX || label === "credential" ? { ...detectKind(text), lines: countLines(text) } : null;
  return { planned, sourceKey, label, blob };
}

export function importSession(p: EngineParts, s: HistorySession): ImportSessionResult {
  const history = new HistoryStore(p.store);
  const sessionId = importedSessionId(s.agent, s.sourceId);
  if (history.isLiveSession(sessionId))
    throw new SpillwayError(ErrorCode.BadArgument, `${sessionId} is a live session's id; an import cannot write into it`);
  const plan = planRequests(s.items);
  const lastAt = s.items.reduce((m, it) => Math.max(m, it.ts), s.startedAt);
  const requests = plan.requests.map((r) => ({
    seq: r.seq,
    ts: r.ts,
    reset: r.reset,
    textChars: r.texts.reduce((n, t) => n + t.length, 0),
    textTokens: r.texts.reduce((n, t) => n + p.tokens.count(t), 0),
  }));
  p.store.transaction(() => {
    history.upsertSession({
      id: sessionId,
      agent: s.agent,
      project: s.project,
      model: s.model,
      title: s.title ? masked(s.title) : null,
      source: s.source,
      startedAt: s.startedAt,
      lastAt,
    });
    history.replaceRequests(sessionId, requests);
  }, "immediate");

  let added = 0;
  let kept = 0;
  for (let i = 0; i < plan.calls.length; i += BATCH) {
    const batch = plan.calls.slice(i, i + BATCH).map((planned) => {
      const sourceKey = `${s.agent}:${s.sourceId}:${planned.call.callId}`;
      const existing = history.callBySourceKey(sourceKey);
      // A call imported before needs no scan, unless the store swept its content since.
      const swept = existing?.blobId ? p.store.meta(existing.blobId)?.state === "tombstoned" : false;
      return { planned, sourceKey, existing, prep: existing && !swept ? null : prepare(p, planned, sourceKey) };
    });
    const counted: { callId: number; result: string; given: string }[] = [];
    const indexed: { id: string; text: string }[] = [];
    p.store.transaction(() => {
      for (const { planned, sourceKey, prep } of batch) {
        const { call, result, requestSeq } = planned;
        const text = result.result;
        const store = (q: Prepared) => {
          const { meta } = p.store.put(text, {
            tool: call.tool,
            server: call.server,
            sessionId,
            kind: q.blob!.kind,
            shape: q.blob!.shape,
            lines: q.blob!.lines,
            label: q.label,
          });
          p.sessions.recordHeld(sessionId, meta.id, 0, p.store.now);
          indexed.push({ id: meta.id, text });
          return meta.id;
        };
        // Checked again under the lock: another import may have stored it meanwhile.
        const now = history.callBySourceKey(sourceKey);
        if (now !== null) {
          history.setRequestSeq(now.id, requestSeq);
          // Content the store swept since the last import comes back; the call itself stays as it was.
          if (prep?.blob && now.blobId && p.store.meta(now.blobId)?.state === "tombstoned" && p.store.idFor(text) === now.blobId)
            store(prep);
          kept++;
          continue;
        }
        const q = prep ?? prepare(p, planned, sourceKey);
        const blobId = q.blob ? store(q) : null;
        const callId = p.ledger.insertCall({
          sessionId,
          ts: call.ts || result.ts || s.startedAt,
          tool: call.tool,
          server: call.server,
          argsJson: masked(canonicalJson(call.args ?? {})),
          outcome: "passthrough",
          blobId,
          isError: result.isError,
          returnedChars: text.length,
          givenChars: result.given.length,
          rawText: blobId === null ? masked(text) : null,
          givenText: result.given === text ? null : masked(result.given),
        });
        history.markImported(callId, {
          sourceKey,
          model: s.models?.get(call.callId) ?? s.model,
          requestSeq,
          hostCut: result.hostCut === "persisted" && result.persistedMissing ? "persisted_missing" : result.hostCut,
        });
        counted.push({ callId, result: text, given: result.given });
        added++;
      }
    }, "immediate");
    for (const c of counted) p.countCallTokens(c.callId, c.result, c.given);
    for (const b of indexed) p.scheduleIndex(b.id, b.text);
  }
  p.store.transaction(() => {
    p.ledger.insertEvent({
      ts: p.store.now,
      type: "import",
      sessionId,
      data: { agent: s.agent, added, kept, requests: plan.requests.length },
    });
  });
  if (added > 0) p.emit({ type: "session", sessionId, change: "import" });
  return { sessionId, added, kept, unanswered: plan.unanswered, requests: plan.requests.length };
}
