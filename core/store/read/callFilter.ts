/**
 * A session's calls filtered in the store, over all of them (a 2,000-call session filters the same
 * as a 20-call one): by tool, outcome, text, or failures only. "Failures" means what the call
 * table shows as one: an error or failed call, a read of its result that was refused (a read
 * belongs to the latest earlier call of the session that returned its blob, as in `attribute`),
 * or a `spill:` reference into its arguments that was denied.
 */
import type { Db } from "../db";
import type { CallRow } from "../ledger";
import type { CallQuery, CallQueryPage } from "./callModel";
import { CALL_TYPES_SQL, sessionMarks, summarize, type TimelineDeps } from "./timeline";

/** Constant SQL: the ids of a main call `c` and its parts. */
const OWN_IDS = "(SELECT p.id FROM calls p WHERE p.id = c.id OR p.part_of = c.id)";
const IS_TRUE = (col: string, path: string) => `(json_valid(${col}) AND json_type(${col}, '${path}') = 'true')`;

const FAILED = `(c.is_error = 1
  OR EXISTS (SELECT 1 FROM events x WHERE x.type = 'expansion' AND x.call_id IN ${OWN_IDS}
    AND NOT (json_valid(x.data_json) AND json_extract(x.data_json, '$.outcome') IS 'expanded'))
  OR EXISTS (SELECT 1 FROM events ce JOIN events r ON r.blob_id = ce.blob_id AND r.session_id = ce.session_id AND r.id > ce.id
    WHERE ce.call_id IN ${OWN_IDS} AND ce.blob_id IS NOT NULL AND ce.type IN (${CALL_TYPES_SQL})
      AND r.type IN ('fetch', 'recall') AND ${IS_TRUE("r.data_json", "$.error")}
      AND NOT EXISTS (SELECT 1 FROM events o WHERE o.blob_id = ce.blob_id AND o.session_id = ce.session_id
        AND o.type IN (${CALL_TYPES_SQL}) AND o.id > ce.id AND o.id < r.id)))`;

const TEXT = `(c.tool LIKE @like ESCAPE '\\' OR c.server LIKE @like ESCAPE '\\' OR c.args_json LIKE @like ESCAPE '\\'
  OR c.blob_id LIKE @like ESCAPE '\\' OR (c.is_error = 1 AND COALESCE(c.raw_text, c.given_text) LIKE @like ESCAPE '\\'))`;

/** `%text%` for LIKE, its own % _ and \ taken literally. */
const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The WHERE clause (constant SQL) and its named parameters for a query. */
function where(q: CallQuery): { sql: string; params: Record<string, unknown> } {
  const parts = ["c.session_id = @session", "c.part_of IS NULL"];
  const params: Record<string, unknown> = { session: q.sessionId };
  if (q.tool) {
    parts.push("c.tool = @tool");
    params.tool = q.tool;
  }
  if (q.outcome) {
    parts.push("c.outcome = @outcome");
    params.outcome = q.outcome;
  }
  const text = q.text?.trim();
  if (text) {
    parts.push(TEXT);
    params.like = likeOf(text);
  }
  if (q.failuresOnly) parts.push(FAILED);
  return { sql: parts.join(" AND "), params };
}

export function findCalls(d: TimelineDeps, q: CallQuery): CallQueryPage {
  const w = where(q);
  const rows = d.db
    .prepare(`SELECT c.* FROM calls c WHERE ${w.sql} AND c.id > @after ORDER BY c.id LIMIT @limit`)
    .all({ ...w.params, after: q.afterCallId, limit: q.limit + 1 }) as CallRow[];
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const { summaries } = summarize(d, q.sessionId, page);
  const count = (sql: string, params: Record<string, unknown>) =>
    (d.db.prepare(`SELECT COUNT(*) AS n FROM calls c WHERE ${sql}`).get(params) as { n: number }).n;
  return {
    calls: summaries,
    marks: q.failuresOnly ? refusedMarks(d.db, q, summaries[0]?.seq ?? null, more ? seqOf(d.db, rows[q.limit]!.id) : null) : [],
    nextAfter: more ? page.at(-1)!.id : null,
    matched: count(w.sql, w.params),
    total: count("c.session_id = @session AND c.part_of IS NULL", { session: q.sessionId }),
    tools: d.db
      .prepare("SELECT tool, COUNT(*) AS calls FROM calls WHERE session_id = ? AND part_of IS NULL GROUP BY tool ORDER BY calls DESC, tool")
      .all(q.sessionId) as { tool: string; calls: number }[],
  };
}

/** The ledger position of a call (its first call event). */
function seqOf(db: Db, callId: number): number | null {
  return (
    db.prepare(`SELECT MIN(id) AS id FROM events WHERE call_id = ? AND type IN (${CALL_TYPES_SQL})`).get(callId) as { id: number | null }
  ).id;
}

/**
 * The session's refused reads of ids none of its calls returned, from the page's first call (the
 * start, on the first page) to the next page's first call (the end, on the last page).
 */
function refusedMarks(db: Db, q: CallQuery, firstSeq: number | null, nextSeq: number | null) {
  const from = q.afterCallId === 0 ? 0 : (firstSeq ?? Number.MAX_SAFE_INTEGER);
  return sessionMarks(db, q.sessionId, from, nextSeq).filter((m) => m.data?.error === true);
}
