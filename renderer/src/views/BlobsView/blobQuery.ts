/** The blobs table's URL query as a server filter and sort, and back. Pure, so it is tested directly. */
import type { BlobFilter, BlobSortKey } from "../../../../core/inspector/api/contract";
import { BLOB_ROLES, BLOB_SORT_KEYS, BLOB_STATES, KINDS, LABELS } from "../../../../core/vocabulary";
import { BLOB_QUERY_KEYS, type BlobQuery } from "../../router/route";

export type BlobSort = { by: BlobSortKey; dir: "asc" | "desc" };
export const DEFAULT_SORT: BlobSort = { by: "createdAt", dir: "desc" };

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): T | undefined =>
  v && (list as readonly string[]).includes(v) ? (v as T) : undefined;

/** The server filter a URL query asks for; values that name nothing are ignored. */
export function filterOf(q: BlobQuery): BlobFilter {
  const f: BlobFilter = {};
  if (q.q?.trim()) f.text = q.q.trim();
  if (q.tool) f.tool = q.tool;
  if (q.session?.trim()) f.sessionId = q.session.trim();
  const kind = oneOf(KINDS, q.kind);
  if (kind) f.kinds = [kind];
  const label = oneOf(LABELS, q.label);
  if (label) f.labels = [label];
  const state = oneOf(BLOB_STATES, q.state);
  if (state) f.states = [state];
  const role = oneOf(BLOB_ROLES, q.role);
  if (role) f.role = role;
  const min = Number(q.min);
  if (q.min && Number.isFinite(min) && min > 0) f.minChars = Math.round(min * 1000);
  if (q.from && /^\d{4}-\d{2}-\d{2}$/.test(q.from)) f.from = new Date(`${q.from}T00:00:00`).getTime();
  return f;
}

export function sortOf(q: BlobQuery): BlobSort {
  const by = oneOf(BLOB_SORT_KEYS, q.sort);
  return by ? { by, dir: q.dir === "asc" ? "asc" : "desc" } : DEFAULT_SORT;
}

/** The URL query for a form and a sort (the default sort is left out). */
export function queryOf(form: BlobQuery, sort: BlobSort): BlobQuery {
  const q: BlobQuery = {};
  for (const k of BLOB_QUERY_KEYS) {
    const v = form[k]?.trim();
    if (v && k !== "sort" && k !== "dir") q[k] = v;
  }
  if (sort.by !== DEFAULT_SORT.by || sort.dir !== DEFAULT_SORT.dir) {
    q.sort = sort.by;
    q.dir = sort.dir;
  }
  return q;
}
