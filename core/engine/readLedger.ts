/**
 * The ledger record of every read (rescuer_fetch, recall_result, resources/read), answered or
 * refused: the mode and arguments, and the exact text the model was given, masked. A read by the
 * operator (the inspector, the CLI) is marked as theirs and does not count as the model's: it
 * neither bumps the blob's fetch count nor extends its life.
 */
import { describeError } from "../errors";
import type { FetchAnswer } from "../fetch/fetchTypes";
import type { BlobMeta } from "../types";
import { BLOB_ID_PATTERN } from "../vocabulary";
import { redactRuns } from "../sensitivity/fetchArgsMask";
import { ROW_PREVIEW_CHARS } from "../store";
import { keptText } from "./auditText";
import type { EngineParts } from "./parts";

export interface ReadRecord {
  type: "fetch" | "recall";
  /** The reading session; null for the operator. */
  sessionId: string | null;
  /** Who read when it was not a session ("inspector", "cli"). */
  operator?: string | undefined;
  /** The id as asked for (it may name no blob, or one the session may not read). */
  id: unknown;
  /** The blob, when the id resolved for this reader. */
  meta: BlobMeta | null;
  mode?: string;
  args?: Record<string, unknown>;
  answer: FetchAnswer;
  data?: Record<string, unknown>;
  /** false when the answer is the blob's whole model view (resources/read): the blob holds it already. */
  keepText?: boolean;
  /** Runs of the arguments that name a secret: masked in the kept arguments, answer and JSON-RPC. */
  redact?: readonly string[];
}

/** Reads whose JSON-RPC (noted after the answer, `noteRead`) still has runs to mask; the oldest go first. */
const PENDING_MAX = 256;

/**
 * A read's arguments as the ledger keeps them (for good: detail pruning leaves event data): masked,
 * and every string over ROW_PREVIEW_CHARS cut as a pruned call's arguments are, `… [N more chars]`.
 * `cut` maps the path of each string cut (`pattern`, `steps.0.pattern`) to its length in full.
 */
function keptArgs(
  args: Record<string, unknown>,
  redact: readonly string[],
): { args: Record<string, unknown>; cut: Record<string, number> } {
  const cut: Record<string, number> = {};
  const walk = (v: unknown, path: string, depth: number): unknown => {
    if (typeof v === "string") {
      if (v.length <= ROW_PREVIEW_CHARS) return v;
      cut[path] = v.length;
      return keptText(v, ROW_PREVIEW_CHARS);
    }
    if (v === null || typeof v !== "object") return v;
    if (depth > 20) return "[nested too deep]";
    const at = (k: string) => (path ? `${path}.${k}` : k);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, at(String(i)), depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, at(k), depth + 1)]));
  };
  // Redacted whole before the cut, so a run across the cut is masked whole.
  return { args: walk(redactRuns(args, redact), "", 0) as Record<string, unknown>, cut };
}

/** A read's answer with the id of its ledger event. */
export type RecordedAnswer = FetchAnswer & { eventId?: number };

/** Records a read and returns its answer, with the ledger event's id. Never throws: a ledger failure is logged. */
export function recordRead(p: EngineParts, r: ReadRecord): RecordedAnswer {
  try {
    const ok = !r.answer.isError;
    const asked = typeof r.id === "string" && BLOB_ID_PATTERN.test(r.id) ? r.id : null;
    // A refused read still names the blob it tried (a cross-session attempt shows in that blob's lineage).
    const meta = r.meta ?? (asked ? p.store.meta(asked) : null);
    const blobId = meta?.id ?? asked;
    const now = p.store.now;
    if (r.sessionId !== null) p.sessions.touch(r.sessionId, now);
    if (ok && r.sessionId !== null && meta) p.store.touchFetch(meta.id);
    const keep = r.keepText !== false || !ok;
    const kept = r.args !== undefined ? keptArgs(r.args, r.redact ?? []) : null;
    const eventId = p.ledger.insertEvent({
      ts: now,
      type: r.type,
      sessionId: r.sessionId,
      blobId,
      tool: meta?.tool ?? null,
      server: meta?.server ?? null,
      chars: ok ? r.answer.text.length : 0,
      // Counted after the answer (countReadTokens): the first count in a process loads the
      // tokenizer's tables, 140-230 ms that the fetch's answer waited for.
      tokens: ok ? null : 0,
      data: {
        ...(r.mode !== undefined ? { mode: r.mode } : {}),
        ...(kept ? { args: kept.args } : {}),
        ...(kept && Object.keys(kept.cut).length ? { argsCut: kept.cut } : {}),
        servedChars: r.answer.servedChars,
        truncated: r.answer.truncated,
        ...(ok ? {} : { error: true }),
        ...(r.sessionId === null ? { by: r.operator ?? "operator" } : {}),
        ...(keep ? {} : { answer: "the whole blob" }),
        ...r.data,
      },
      text: keep ? keptText(redactRuns(r.answer.text, r.redact ?? [])) : null,
    });
    if (ok && keep) p.countReadTokens(eventId, r.answer.text);
    if (r.redact?.length) {
      p.pendingRedactions.set(eventId, r.redact);
      for (const old of p.pendingRedactions.keys()) {
        if (p.pendingRedactions.size <= PENDING_MAX) break;
        p.pendingRedactions.delete(old);
      }
    }
    if (blobId) p.emit({ type: "fetch", sessionId: r.sessionId, blobId, mode: r.mode ?? r.type });
    return { ...r.answer, eventId };
  } catch (err) {
    p.logger.error("recording a read failed", { type: r.type, error: describeError(err) });
    return r.answer;
  }
}
