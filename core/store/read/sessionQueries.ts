/** Sessions with their per-session figures, computed the way the savings ledger computes them. */
import type { Db } from "../db";
import { stmt } from "../statements";
import type { SessionRow } from "../sessions";
import type { SessionList, SessionListQuery, SessionSortKey, SessionSummary } from "./readModel";

/** Rescued and stubbed counts per call: a call whose two parts were both rescued counts once. */
export const CALL_COUNTS = `COUNT(DISTINCT CASE WHEN outcome = 'rescued' THEN COALESCE(part_of, id) END) AS rescued,
    COUNT(DISTINCT CASE WHEN outcome = 'stubbed' THEN COALESCE(part_of, id) END) AS stubbed`;
/** A read event that was refused (its data says so). */
const READ_FAILED = `COALESCE(json_extract(data_json, '$.error'), 0)`;

const SUMMARY_SQL = `
WITH c AS (
  SELECT session_id, SUM(part_of IS NULL) AS calls, ${CALL_COUNTS},
    SUM(is_error AND part_of IS NULL) AS failed,
    SUM(returned_chars) AS rc, COALESCE(SUM(returned_tokens), 0) AS rt,
    SUM(given_chars) AS gc, COALESCE(SUM(given_tokens), 0) AS gt, SUM(tokens_estimated) AS est
  FROM calls INDEXED BY calls_figures GROUP BY session_id),
e AS (
  SELECT session_id, SUM(type IN ('fetch', 'recall') AND NOT ${READ_FAILED}) AS fetches,
    SUM(type IN ('fetch', 'recall') AND ${READ_FAILED}) AS refused,
    SUM(CASE WHEN type IN ('fetch', 'recall') THEN chars ELSE 0 END) AS pc,
    COALESCE(SUM(CASE WHEN type IN ('fetch', 'recall') THEN tokens END), 0) AS pt,
    SUM(CASE WHEN type = 'expansion' THEN chars ELSE 0 END) AS xc
  FROM events WHERE type IN ('fetch', 'recall', 'expansion') AND session_id IS NOT NULL GROUP BY session_id),
b AS (SELECT session_id, COUNT(*) AS blobs FROM session_blobs GROUP BY session_id)
SELECT s.id, s.client, s.created_at, s.last_seen_at, s.generation, s.turn,
  s.imported, s.agent, s.project, s.model, s.title, s.source,
  COALESCE(c.calls, 0) AS calls, COALESCE(c.rescued, 0) AS rescued, COALESCE(c.stubbed, 0) AS stubbed,
  COALESCE(b.blobs, 0) AS blobs, COALESCE(e.fetches, 0) AS fetches,
  COALESCE(c.failed, 0) + COALESCE(e.refused, 0) AS errors, COALESCE(e.xc, 0) AS ref_chars,
  COALESCE(c.rt, 0) AS rt, COALESCE(c.gt, 0) AS gt, COALESCE(e.pt, 0) AS pt, COALESCE(c.est, 0) AS est,
  CASE WHEN s.imported = 1 THEN 0 ELSE COALESCE(c.rt, 0) - COALESCE(c.gt, 0) - COALESCE(e.pt, 0) END AS net_tokens,
  CASE WHEN s.imported = 1 THEN 0 ELSE COALESCE(c.rc, 0) - COALESCE(c.gc, 0) - COALESCE(e.pc, 0) END AS net_chars
FROM sessions s LEFT JOIN c ON c.session_id = s.id LEFT JOIN e ON e.session_id = s.id LEFT JOIN b ON b.session_id = s.id`;

interface Row extends SessionRow {
  errors: number;
  ref_chars: number;
  imported: number;
  agent: string | null;
  project: string | null;
  model: string | null;
  title: string | null;
  source: string | null;
  calls: number;
  rescued: number;
  stubbed: number;
  blobs: number;
  fetches: number;
  rt: number;
  gt: number;
  pt: number;
  est: number;
  net_tokens: number;
  net_chars: number;
}

const SORT: Record<SessionSortKey, string> = {
  lastSeenAt: "last_seen_at",
  createdAt: "created_at",
  calls: "calls",
  netTokens: "net_tokens",
  id: "id",
  client: "client COLLATE NOCASE",
  errors: "errors",
  fetches: "fetches",
};

function toSummary(r: Row): SessionSummary {
  return {
    id: r.id,
    client: r.client,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    generation: r.generation,
    turn: r.turn,
    calls: r.calls,
    rescued: r.rescued,
    stubbed: r.stubbed,
    blobs: r.blobs,
    fetches: r.fetches,
    errors: r.errors,
    returnedTokens: r.rt,
    givenTokens: r.gt,
    pulledTokens: r.pt,
    netTokens: r.net_tokens,
    estimatedTokenCounts: r.est,
    netChars: r.net_chars,
    refChars: r.ref_chars,
    imported: r.imported ? { agent: r.agent ?? "?", project: r.project, model: r.model, title: r.title, source: r.source } : null,
  };
}

/** Sorts by a column of the session row itself: the page can be picked before anything is aggregated. */
const OWN_COLUMN_SORTS: ReadonlySet<SessionSortKey> = new Set(["lastSeenAt", "createdAt", "id", "client"]);

/** SUMMARY_SQL with every aggregate limited to the sessions whose ids are the JSON array `@ids`. */
const SCOPED_SUMMARY_SQL = SUMMARY_SQL.replace(
  "FROM calls INDEXED BY calls_figures GROUP BY",
  "FROM calls WHERE session_id IN (SELECT value FROM json_each(@ids)) GROUP BY",
)
  .replace("AND session_id IS NOT NULL GROUP BY", "AND session_id IN (SELECT value FROM json_each(@ids)) GROUP BY")
  .replace("FROM session_blobs GROUP BY", "FROM session_blobs WHERE session_id IN (SELECT value FROM json_each(@ids)) GROUP BY");

// A replace that stops matching (SUMMARY_SQL edited) would silently sum every session again.
if (SCOPED_SUMMARY_SQL.split("json_each(@ids)").length !== 4) throw new Error("SCOPED_SUMMARY_SQL no longer scopes all three aggregates");

function summariesOf(db: Db, ids: string[], order: string): Row[] {
  return stmt(db, `${SCOPED_SUMMARY_SQL} WHERE s.id IN (SELECT value FROM json_each(@ids)) ORDER BY ${order}`).all({
    ids: JSON.stringify(ids),
  }) as Row[];
}

export function listSessions(db: Db, a: SessionListQuery): SessionList {
  const q = a.query?.trim();
  const conds: string[] = [];
  const params: (string | number)[] = [];
  if (q) {
    const like = "%" + q.replace(/[\\%_]/g, (ch) => "\\" + ch) + "%";
    conds.push("(id LIKE ? ESCAPE '\\' OR client LIKE ? ESCAPE '\\' OR project LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\')");
    params.push(like, like, like, like);
  }
  if (a.imported !== undefined) conds.push(a.imported ? "imported = 1" : "imported = 0");
  if (a.agent) {
    conds.push("agent = ?");
    params.push(a.agent);
  }
  const where = conds.length ? `WHERE ${conds.join(" AND ")}` : "";
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM sessions ${where}`).get(...params) as { n: number }).n;
  const dir = a.sort.dir === "asc" ? "ASC" : "DESC";
  const order = `${SORT[a.sort.by]} ${dir}, id`;
  // The default sorts (by time, id or client) pick the page from the sessions table, then sum
  // the calls of those sessions only: the first page costs the same at 1 M calls as at 1 k.
  const rows = OWN_COLUMN_SORTS.has(a.sort.by)
    ? summariesOf(
        db,
        db
          .prepare(`SELECT id FROM sessions ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
          .pluck()
          .all(...params, a.limit, a.offset) as string[],
        order,
      )
    : (db.prepare(`SELECT * FROM (${SUMMARY_SQL}) ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, a.limit, a.offset) as Row[]);
  return { total, offset: a.offset, rows: rows.map(toSummary) };
}

export function sessionSummary(db: Db, id: string): SessionSummary | null {
  // The CTEs aggregate only this session's rows, so one session's view stays cheap.
  const r = summariesOf(db, [id], "id")[0];
  return r ? toSummary(r) : null;
}
