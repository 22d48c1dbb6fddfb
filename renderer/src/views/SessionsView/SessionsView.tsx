/** Sessions: one row per agent session (an MCP session, a `spillway mcp` process, a hook session id). */
import { useEffect, useState } from "react";
import { useOp } from "../../api/useOp";
import { ConnectHint } from "../../components/ConnectHint/ConnectHint";
import { ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtInt, fmtTime } from "../../format/format";
import { formatRoute } from "../../router/route";

type SortBy = "lastSeenAt" | "createdAt" | "calls" | "netTokens" | "id";
const COLS: { id: SortBy | null; label: string; width?: number; num?: boolean }[] = [
  { id: "id", label: "Session" },
  { id: null, label: "Client", width: 130 },
  { id: "createdAt", label: "Started", width: 150 },
  { id: "lastSeenAt", label: "Last seen", width: 100 },
  { id: "calls", label: "Calls", width: 70, num: true },
  { id: null, label: "Rescued", width: 76, num: true },
  { id: null, label: "Stubbed", width: 76, num: true },
  { id: null, label: "Fetches", width: 72, num: true },
  { id: "netTokens", label: "Net tokens", width: 100, num: true },
];

export function SessionsView() {
  const [query, setQuery] = useState("");
  const [q, setQ] = useState("");
  const [limit, setLimit] = useState(200);
  const [sort, setSort] = useState<{ by: SortBy; dir: "asc" | "desc" }>({ by: "lastSeenAt", dir: "desc" });
  useEffect(() => {
    const t = setTimeout(() => setQ(query), 200);
    return () => clearTimeout(t);
  }, [query]);
  const list = useOp("sessions.list", { offset: 0, limit, sort, ...(q.trim() ? { query: q.trim() } : {}) });
  const rows = list.data?.rows ?? [];
  const toggle = (by: SortBy) => setSort((s) => ({ by, dir: s.by === by && s.dir === "desc" ? "asc" : "desc" }));
  return (
    <>
      <ViewHead title="Sessions">
        <span className="muted num">{list.data ? `${fmtInt(list.data.total)} sessions` : "…"}</span>
        <label className="sr-only" htmlFor="session-filter">Filter sessions</label>
        <input id="session-filter" data-shortcut="filter" className="input" placeholder="filter by id or client" value={query} onChange={(e) => setQuery(e.target.value)} />
      </ViewHead>
      <Progress on={list.loading || list.refreshing} label="Loading sessions" />
      <div className="view-body flush">
        <ErrorNote error={list.error} />
        {list.data && list.data.total === 0 && !q ? (
          <ConnectHint what="No sessions yet" />
        ) : (
          <div className="vtable">
            <table className="table" data-testid="sessions-table" style={{ tableLayout: "fixed" }}>
              <thead>
                <tr>
                  {COLS.map((c) => (
                    <th key={c.label} style={{ width: c.width }} className={c.num ? "num" : undefined} aria-sort={c.id && sort.by === c.id ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}>
                      {c.id ? (
                        <button type="button" onClick={() => toggle(c.id!)}>
                          {c.label} <span aria-hidden="true">{sort.by === c.id ? (sort.dir === "asc" ? "▲" : "▼") : ""}</span>
                        </button>
                      ) : (
                        c.label
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((s) => (
                  <tr key={s.id} data-id={s.id}>
                    <td className="mono" title={s.id}><a href={formatRoute({ name: "session", id: s.id })}>{s.id}</a></td>
                    <td title={s.client ?? ""}>{s.client ?? <span className="muted">–</span>}</td>
                    <td className="mono">{fmtTime(s.createdAt)}</td>
                    <td title={fmtTime(s.lastSeenAt)}>{fmtAgo(s.lastSeenAt)}</td>
                    <td className="num">{fmtInt(s.calls)}</td>
                    <td className="num">{fmtInt(s.rescued)}</td>
                    <td className="num">{fmtInt(s.stubbed)}</td>
                    <td className="num">{fmtInt(s.fetches)}</td>
                    <td className="num">{fmtInt(s.netTokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.data && list.data.total > rows.length && (
              <p style={{ padding: 10 }}>
                <button type="button" className="btn" onClick={() => setLimit((l) => Math.min(1000, l + 200))} disabled={limit >= 1000}>
                  Show more ({fmtInt(list.data.total - rows.length)} not shown)
                </button>
              </p>
            )}
          </div>
        )}
      </div>
    </>
  );
}
