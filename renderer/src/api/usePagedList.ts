/**
 * A server-sorted, server-filtered list read page by page as rows scroll into view, through
 * the same query cache (so pushed events refresh the visible pages like any other read).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Req, Res } from "../../../core/inspector/api/contract";
import { useCache } from "./ApiProvider";
import { queryKey } from "./queryCache";

type ListOp = "blobs.list" | "sessions.list";
type RowOf<K extends ListOp> = Res<K>["rows"][number];

export interface PagedList<T> {
  /** Rows in the list; while a new request's first page loads, the previous request's (see `stale`), so the table keeps its height. */
  total: number | undefined;
  /** `total` is the previous request's, not this one's: show it as loading, never as this request's count. */
  stale: boolean;
  rowAt(i: number): T | undefined;
  /** Tells the list which rows are on screen; their pages load if missing. */
  setRange(first: number, last: number): void;
  loading: boolean;
  /** Changes whenever any shown page changed; use as a memo dependency. */
  version: number;
}

export function usePagedList<K extends ListOp>(op: K, base: Omit<Req<K>, "offset" | "limit">, pageSize = 200): PagedList<RowOf<K>> {
  const cache = useCache();
  const baseKey = queryKey(op, base);
  const [range, setRangeState] = useState<[number, number]>([0, 0]);
  const [version, setVersion] = useState(0);
  const lastTotal = useRef<{ key: string; total: number } | undefined>(undefined);
  const pageReq = useCallback((p: number) => ({ ...base, offset: p * pageSize, limit: pageSize }) as Req<K>, [baseKey, pageSize]);
  const pages = useMemo(() => {
    const [a, b] = range;
    const out: number[] = [];
    for (let p = a; p <= b; p++) out.push(p);
    if (!out.includes(0)) out.push(0); // page 0 carries the total even when scrolled far down
    return out;
  }, [range[0], range[1]]);

  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const unsubs = pages.map((p) => cache.subscribe(op, pageReq(p), bump));
    for (const p of pages) void cache.ensure(op, pageReq(p));
    bump();
    return () => unsubs.forEach((u) => u());
  }, [cache, op, pageReq, pages.join(",")]);

  const snapshots = pages.map((p) => cache.snapshot(op, pageReq(p)));
  const first = snapshots.find((s) => s.data !== undefined)?.data as Res<K> | undefined;
  if (first) lastTotal.current = { key: baseKey, total: first.total };
  const kept = first ? undefined : lastTotal.current;
  const byPage = new Map(pages.map((p, i) => [p, snapshots[i]!.data as Res<K> | undefined]));
  return {
    total: first ? first.total : kept?.total,
    stale: kept !== undefined && kept.key !== baseKey,
    rowAt: (i) => byPage.get(Math.floor(i / pageSize))?.rows[i % pageSize] as RowOf<K> | undefined,
    // Kept as page numbers, so scrolling within loaded pages does not re-render the owner.
    setRange: useCallback(
      (firstRow: number, lastRow: number) => {
        const a = Math.floor(firstRow / pageSize);
        const b = Math.floor(lastRow / pageSize);
        setRangeState((r) => (r[0] === a && r[1] === b ? r : [a, b]));
      },
      [pageSize],
    ),
    loading: snapshots.some((s) => s.status === "loading" || s.refreshing),
    version,
  };
}
