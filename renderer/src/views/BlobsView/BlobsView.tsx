/** Blobs: every stored result, filtered and sorted on the server, with pin, unpin, purge and export. */
import { useCallback, useMemo, useState } from "react";
import type { BlobFilter, BlobSortKey } from "../../../../core/inspector/api/contract";
import { usePagedList } from "../../api/usePagedList";
import { BlobTable } from "../../components/BlobTable/BlobTable";
import { ConnectHint } from "../../components/ConnectHint/ConnectHint";
import { Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtInt } from "../../format/format";
import type { Route } from "../../router/route";
import { navigate } from "../../router/useRoute";
import { BlobActions } from "./BlobActions";
import { BlobFilters } from "./BlobFilters";

function initialFilter(r: Extract<Route, { name: "blobs" }>): BlobFilter {
  const f: BlobFilter = {};
  if (r.tool) f.tool = r.tool;
  if (r.session) f.sessionId = r.session;
  if (r.state === "live" || r.state === "pinned" || r.state === "tombstoned") f.states = [r.state];
  return f;
}

export function BlobsView({ route }: { route: Extract<Route, { name: "blobs" }> }) {
  const [filter, setFilter] = useState<BlobFilter>(() => initialFilter(route));
  const [sort, setSort] = useState<{ by: BlobSortKey; dir: "asc" | "desc" }>({ by: "createdAt", dir: "desc" });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const base = useMemo(() => ({ filter, sort }), [filter, sort]);
  const list = usePagedList("blobs.list", base);
  const onSelect = useCallback((ids: string[], on: boolean) => {
    setSelected((s) => {
      const n = new Set(s);
      for (const id of ids) if (on) n.add(id);
      else n.delete(id);
      return n;
    });
  }, []);
  const filtered = Object.keys(filter).length > 0;
  return (
    <>
      <ViewHead title="Blobs">
        <span className="muted num" data-testid="blob-count" aria-live="polite">
          {list.total === undefined ? "…" : `${fmtInt(list.total)} ${filtered ? "matching" : "stored"}`}
        </span>
        <BlobActions selected={[...selected]} onDone={() => setSelected(new Set())} />
      </ViewHead>
      <Progress on={list.loading} label="Loading blobs" />
      <div className="view-body flush">
        <BlobFilters initial={filter} onChange={setFilter} />
        {list.total === 0 && !filtered ? (
          <ConnectHint what="No stored results yet" />
        ) : list.total === 0 ? (
          <p className="empty muted">No blob matches these filters.</p>
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
