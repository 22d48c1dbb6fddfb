/** SQL behind the blobs table: server-side filter, sort and paging, so 100 k rows never travel at once. */
import type { Db } from "../db";
import { toBlobMeta, type BlobRow as IndexRow } from "../rows";
import type { Kind } from "../../types";
import type { BlobFacets, BlobFilter, BlobList, BlobListQuery, BlobRow, BlobSortKey } from "./readModel";

/** Whether the model was ever given a handle for the blob (a constant correlated subquery). */
const RESCUED_SQL = "SELECT 1 FROM calls c WHERE c.blob_id = blobs.id AND c.outcome = 'rescued'";
const CALLED_SQL = "SELECT 1 FROM calls c WHERE c.blob_id = blobs.id";
const STATE_SQL = "(CASE WHEN tombstoned_at IS NOT NULL THEN 2 WHEN pinned = 1 THEN 1 ELSE 0 END)";
const LABEL_SQL = "(CASE label WHEN 'public' THEN 0 WHEN 'internal' THEN 1 WHEN 'personal' THEN 2 ELSE 3 END)";

const SORT_SQL: Record<BlobSortKey, string> = {
  createdAt: "created_at",
  lastAccessAt: "last_access_at",
  expiresAt: "expires_at",
  chars: "chars",
  lines: "lines",
  tool: "tool COLLATE NOCASE",
  sessionId: "session_id",
  kind: "kind",
  label: LABEL_SQL,
  state: STATE_SQL,
  fetchCount: "fetch_count",
  id: "id",
};

/** `%text%` for LIKE, with the wildcards in the user's text taken literally. */
function likeArg(text: string): string {
  return "%" + text.replace(/[\\%_]/g, (c) => "\\" + c) + "%";
}

/** The WHERE clause and its parameters for a filter. */
export function blobWhere(f: BlobFilter): { sql: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  const text = f.text?.trim();
  if (text) {
    conds.push("(id LIKE ? ESCAPE '\\' OR tool LIKE ? ESCAPE '\\' OR server LIKE ? ESCAPE '\\' OR shape LIKE ? ESCAPE '\\')");
    const arg = likeArg(text);
    params.push(arg, arg, arg, arg);
  }
  if (f.tool?.trim()) {
    conds.push("tool LIKE ? ESCAPE '\\'");
    params.push(likeArg(f.tool.trim()));
  }
  if (f.sessionId?.trim()) {
    conds.push("session_id LIKE ? ESCAPE '\\'");
    params.push(likeArg(f.sessionId.trim()));
  }
  const inList = (col: string, values: readonly string[] | undefined) => {
    if (!values || values.length === 0) return;
    conds.push(`${col} IN (${values.map(() => "?").join(", ")})`);
    params.push(...values);
  };
  inList("kind", f.kinds);
  inList("label", f.labels);
  if (f.states && f.states.length > 0) {
    const codes = f.states.map((s) => (s === "tombstoned" ? 2 : s === "pinned" ? 1 : 0));
    conds.push(`${STATE_SQL} IN (${codes.join(", ")})`);
  }
  const bound = (sql: string, v: number | undefined) => {
    if (v === undefined) return;
    conds.push(sql);
    params.push(v);
  };
  bound("chars >= ?", f.minChars);
  bound("chars <= ?", f.maxChars);
  bound("created_at >= ?", f.from);
  bound("created_at <= ?", f.to);
  if (f.role === "rescued") conds.push(`EXISTS (${RESCUED_SQL})`);
  if (f.role === "dedup") conds.push(`NOT EXISTS (${RESCUED_SQL}) AND EXISTS (${CALLED_SQL})`);
  if (f.role === "other") conds.push(`NOT EXISTS (${CALLED_SQL})`);
  return { sql: conds.length ? "WHERE " + conds.join(" AND ") : "", params };
}

export function toBlobRow(r: IndexRow): BlobRow {
  return { ...toBlobMeta(r), tombstoneReason: r.tombstone_reason };
}

export function listBlobs(db: Db, a: BlobListQuery): BlobList {
  const where = blobWhere(a.filter);
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM blobs ${where.sql}`).get(...where.params) as { n: number }).n;
  const dir = a.sort.dir === "asc" ? "ASC" : "DESC";
  // id breaks ties, so paging through equal keys neither repeats nor skips rows.
  const rows = db
    .prepare(`SELECT * FROM blobs ${where.sql} ORDER BY ${SORT_SQL[a.sort.by]} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
    .all(...where.params, a.limit, a.offset) as IndexRow[];
  // Computed for the page only: a 100 k-row sort does not pay for it.
  const ids = rows.map((r) => r.id);
  const roles = new Map(
    ids.length
      ? (
          db
            .prepare(
              `SELECT blob_id AS id, MAX(outcome = 'rescued') AS rescued FROM calls WHERE blob_id IN (${ids.map(() => "?").join(", ")}) GROUP BY blob_id`,
            )
            .all(...ids) as {
            id: string;
            rescued: number;
          }[]
        ).map((r) => [r.id, r.rescued ? "rescued" : "dedup"] as const)
      : [],
  );
  return { total, offset: a.offset, rows: rows.map((r) => ({ ...toBlobRow(r), role: roles.get(r.id) ?? "other" })) };
}

/** The ids of the blobs a filter matches, newest first, at most `limit`. */
export function blobIdsMatching(db: Db, f: BlobFilter, limit: number): string[] {
  const where = blobWhere(f);
  return (
    db.prepare(`SELECT id FROM blobs ${where.sql} ORDER BY created_at DESC LIMIT ?`).all(...where.params, limit) as { id: string }[]
  ).map((r) => r.id);
}

export function blobFacets(db: Db): BlobFacets {
  const col = (sql: string) => (db.prepare(sql).all() as { v: string }[]).map((r) => r.v);
  return {
    tools: col("SELECT DISTINCT tool AS v FROM blobs ORDER BY tool COLLATE NOCASE LIMIT 2000"),
    servers: col("SELECT DISTINCT server AS v FROM blobs WHERE server IS NOT NULL ORDER BY server LIMIT 500"),
    kinds: col("SELECT DISTINCT kind AS v FROM blobs ORDER BY kind") as Kind[],
    total: (db.prepare("SELECT COUNT(*) AS n FROM blobs").get() as { n: number }).n,
  };
}
