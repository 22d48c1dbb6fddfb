/** Blobs: every stored result, filtered and sorted on the server, with pin, unpin, purge and export. */
import { useCallback, useEffect, useMemo, useState } from "react";
import { usePagedList } from "../../api/usePagedList";
import { BlobTable } from "../../components/BlobTable/BlobTable";
import { ConnectHint } from "../../components/ConnectHint/ConnectHint";
import { LiveCount } from "../../components/LiveCount/LiveCount";
import { Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtInt } from "../../format/format";
import { formatRoute, type BlobQuery, type Route } from "../../router/route";
import { navigate } from "../../router/useRoute";
import { BlobActions } from "./BlobActions";
import { BlobFilters } from "./BlobFilters";
import { DEFAULT_SORT, filterOf, queryOf, sortOf, type BlobSort } from "./blobQuery";

/** The query this view last wrote to the URL: a route that differs came from outside (a link, Back). */
let written = "";

export function BlobsView({ route }: { route: Extract<Route, { name: "blobs" }> }) {
  const key = formatRoute(route);
  const [version, setVersion] = useState(0);
  const [form, setForm] = useState<BlobQuery>(route);
  const [sort, setSortState] = useState<BlobSort>(() => sortOf(route));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // A text filter holds what the list was not asked for yet (BlobFilters waits for typing to pause).
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    if (key === written) return;
    written = key;
    setForm(route);
    setSortState(sortOf(route));
    setVersion((v) => v + 1);
  }, [key]);
  const write = (f: BlobQuery, s: BlobSort) => {
    written = formatRoute({ name: "blobs", ...queryOf(f, s) });
    navigate({ name: "blobs", ...queryOf(f, s) }, true);
  };
  const onForm = (f: BlobQuery) => {
    setForm(f);
    write(f, sort);
  };
  const setSort = (s: BlobSort) => {
    setSortState(s);
    write(form, s);
  };
  const filter = useMemo(() => filterOf(form), [formatRoute({ name: "blobs", ...queryOf(form, DEFAULT_SORT) })]);
  const base = useMemo(() => ({ filter, sort }), [filter, sort]);
  const list = usePagedList("blobs.list", base);
  const onSelect = useCallback((ids: string[], on: boolean) => {
    setSelected((s) => {
      const n = new Set(s);
      for (const id of ids)
        if (on) n.add(id);
        else n.delete(id);
      return n;
    });
  }, []);
  const filtered = Object.keys(filter).length > 0;
  return (
    <>
      <ViewHead title="Blobs">
        <LiveCount
          testId="blob-count"
          pending={typing || list.total === undefined || list.stale}
          pendingLabel={filtered || typing ? "counting the matching blobs" : "counting the stored blobs"}
        >
          {`${fmtInt(list.total ?? 0)} ${filtered ? "matching" : "stored"}`}
        </LiveCount>
        <BlobActions selected={[...selected]} onDone={() => setSelected(new Set())} />
      </ViewHead>
      <Progress on={list.loading} label="Loading blobs" />
      <div className="view-body flush">
        <BlobFilters key={version} initial={form} onChange={onForm} onPending={setTyping} />
        {/* An empty answer to the previous filter (or to the text before this one) says nothing about this one. */}
        {list.total === 0 && !list.stale && !typing && !filtered ? (
          <ConnectHint what="No stored results yet" />
        ) : list.total === 0 && !list.stale && !typing ? (
          <p className="empty muted" data-testid="blobs-empty">
            No blob matches these filters.
          </p>
        ) : (
          <BlobTable
            total={list.total ?? 0}
            rowAt={list.rowAt}
            version={list.version}
            onRange={list.setRange}
            sort={sort}
            onSort={setSort}
            selected={selected}
            onSelect={onSelect}
            onOpen={(id) => navigate({ name: "blob", id })}
            resetKey={JSON.stringify(base)}
          />
        )}
      </div>
    </>
  );
}
