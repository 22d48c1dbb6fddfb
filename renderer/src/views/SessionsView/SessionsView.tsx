/**
 * Sessions: one row per agent session (an MCP session, a `spillway mcp` process, a hook session
 * id), filtered and sorted on the server and read page by page as rows scroll into view, so any
 * number of sessions scroll like a hundred. Client and time come first; the id is shortened.
 */
import { useMemo, useState, type ReactNode } from "react";
import type { SessionSortKey, SessionSummary } from "../../../../core/inspector/api/contract";
import { useDebounced } from "../../api/useDebounced";
import { usePagedList } from "../../api/usePagedList";
import { ConnectHint } from "../../components/ConnectHint/ConnectHint";
import { LiveCount } from "../../components/LiveCount/LiveCount";
import { Progress, ViewHead } from "../../components/Ui/Ui";
import { useVirtualRows } from "../../components/Ui/useVirtualRows";
import { fmtAgo, fmtInt, fmtShortTime, fmtTime, fmtTokens, shortId, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";
import { navigate } from "../../router/useRoute";

const ROW_H = 30;
type Col = {
  id: SessionSortKey;
  label: string;
  flex: string;
  num?: boolean;
  cell: (s: SessionSummary) => ReactNode;
  title?: (s: SessionSummary) => string;
};
const COLS: Col[] = [
  {
    id: "client",
    label: "Client",
    flex: "1 1 150px",
    cell: (s) => (s.client !== null ? visibleText(s.client) : <span className="muted">unknown client</span>),
    title: (s) => visibleText(s.client ?? ""),
  },
  { id: "lastSeenAt", label: "Last seen", flex: "0 0 92px", cell: (s) => fmtAgo(s.lastSeenAt), title: (s) => fmtTime(s.lastSeenAt) },
  {
    id: "createdAt",
    label: "Started",
    flex: "0 0 100px",
    cell: (s) => <span className="mono">{fmtShortTime(s.createdAt)}</span>,
    title: (s) => fmtTime(s.createdAt),
  },
  {
    id: "id",
    label: "Session",
    flex: "0 1 150px",
    cell: (s) => (
      <a className="mono" href={formatRoute({ name: "session", id: s.id })}>
        {shortId(s.id, 14)}
      </a>
    ),
    title: (s) => visibleText(s.id),
  },
  {
    id: "calls",
    label: "Calls",
    flex: "0 0 62px",
    num: true,
    cell: (s) => fmtInt(s.calls),
    title: (s) => `${fmtInt(s.rescued)} rescued, ${fmtInt(s.stubbed)} stubbed`,
  },
  {
    id: "errors",
    label: "Failures",
    flex: "0 0 74px",
    num: true,
    cell: (s) => (s.errors ? <span className="bad-text">{fmtInt(s.errors)}</span> : "0"),
  },
  { id: "fetches", label: "Reads", flex: "0 0 62px", num: true, cell: (s) => fmtInt(s.fetches) },
  { id: "netTokens", label: "Net tokens", flex: "0 0 118px", num: true, cell: (s) => fmtTokens(s.netTokens, s.estimatedTokenCounts) },
];

export function SessionsView() {
  const [query, setQuery] = useState("");
  const typed = query.trim();
  const { value: q, settled } = useDebounced(typed);
  const [sort, setSort] = useState<{ by: SessionSortKey; dir: "asc" | "desc" }>({ by: "lastSeenAt", dir: "desc" });
  const base = useMemo(() => ({ sort, ...(q ? { query: q } : {}) }), [sort, q]);
  const list = usePagedList("sessions.list", base);
  const toggle = (by: SessionSortKey) => setSort((s) => ({ by, dir: s.by === by && s.dir === "desc" ? "asc" : "desc" }));
  return (
    <>
      <ViewHead title="Sessions">
        <LiveCount
          testId="session-count"
          pending={!settled || list.total === undefined || list.stale}
          pendingLabel={typed ? "counting the matching sessions" : "counting the sessions"}
        >
          {`${fmtInt(list.total ?? 0)} ${q ? "matching" : "sessions"}`}
        </LiveCount>
        <label className="sr-only" htmlFor="session-filter">
          Filter sessions
        </label>
        <input
          id="session-filter"
          data-shortcut="filter"
          className="input"
          placeholder="filter by id or client"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </ViewHead>
      <Progress on={list.loading} label="Loading sessions" />
      <div className="view-body flush">
        {/* An empty answer to the previous filter says nothing about this one. */}
        {list.total === 0 && !list.stale && !q ? (
          <ConnectHint what="No sessions yet" />
        ) : list.total === 0 && !list.stale ? (
          <p className="empty muted">No session matches “{q}”.</p>
        ) : (
          <SessionTable
            total={list.total ?? 0}
            rowAt={list.rowAt}
            version={list.version}
            onRange={list.setRange}
            sort={sort}
            onSort={toggle}
            resetKey={JSON.stringify(base)}
          />
        )}
      </div>
    </>
  );
}

function SessionTable(p: {
  total: number;
  rowAt(i: number): SessionSummary | undefined;
  version: number;
  onRange(first: number, last: number): void;
  sort: { by: SessionSortKey; dir: "asc" | "desc" };
  onSort(by: SessionSortKey): void;
  resetKey: string;
}) {
  const {
    scrollRef,
    virtualizer: v,
    items,
    active,
    setActive,
    onKeyDown,
  } = useVirtualRows({
    total: p.total,
    rowHeight: ROW_H,
    overscan: 10,
    onRange: p.onRange,
    resetKey: p.resetKey,
    onEnter: (i) => {
      const r = p.rowAt(i);
      if (r) navigate({ name: "session", id: r.id });
    },
    ownKeysOnly: true,
  });
  return (
    <div
      className="vtable"
      ref={scrollRef}
      tabIndex={0}
      role="region"
      aria-label={`Sessions, ${p.total} rows. Arrow keys move, Enter opens.`}
      onKeyDown={onKeyDown}
      data-testid="sessions-table"
    >
      <table className="table" style={{ display: "grid" }} aria-rowcount={p.total + 1} data-version={p.version}>
        <thead style={{ display: "grid", position: "sticky", top: 0, zIndex: 1 }}>
          <tr style={{ display: "flex" }}>
            {COLS.map((c) => (
              <th
                key={c.id}
                style={{ flex: c.flex, display: "flex", alignItems: "center", justifyContent: c.num ? "flex-end" : undefined }}
                aria-sort={p.sort.by === c.id ? (p.sort.dir === "asc" ? "ascending" : "descending") : undefined}
              >
                <button type="button" onClick={() => p.onSort(c.id)}>
                  {c.label} <span aria-hidden="true">{p.sort.by === c.id ? (p.sort.dir === "asc" ? "▲" : "▼") : ""}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody style={{ display: "grid", height: v.getTotalSize(), position: "relative" }}>
          {items.map((it) => {
            const s = p.rowAt(it.index);
            return (
              <tr
                key={it.key}
                data-id={s?.id}
                aria-rowindex={it.index + 2}
                aria-selected={it.index === active}
                style={{ display: "flex", position: "absolute", transform: `translateY(${it.start}px)`, width: "100%", height: ROW_H }}
                onClick={() => setActive(it.index)}
                onDoubleClick={() => s && navigate({ name: "session", id: s.id })}
              >
                {COLS.map((c) => (
                  <td
                    key={c.id}
                    style={{ flex: c.flex, display: "flex", alignItems: "center", justifyContent: c.num ? "flex-end" : undefined }}
                    className={c.num ? "num" : undefined}
                    title={s && c.title ? c.title(s) : undefined}
                  >
                    {s ? <span>{c.cell(s)}</span> : <span className="skeleton" />}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
