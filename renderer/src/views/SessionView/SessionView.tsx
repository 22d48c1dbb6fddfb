/**
 * A session: its figures, then its calls as a compact table (oldest first, a page at a time), each
 * opening onto the whole call; under a filter, the store's matches over all of its calls.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SessionSummary } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { Card, CopyButton, ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtCompact, fmtInt, fmtTime, fmtTokens, shortId, visibleText } from "../../format/format";
import { estimatedResultsNote } from "../../../../core/vocabulary";
import { formatRoute, openCalls, sessionRoute, toggleCall, type SessionRoute } from "../../router/route";
import { navigate } from "../../router/useRoute";
import { useWidth } from "../../components/SavingsChart/useWidth";
import { CALL_COLUMNS, CallRows } from "./CallTable";
import { CallFilterBar, findRequest, isFiltered, NO_FILTER, type CallFilter } from "./CallFilterBar";
import { FILTER_PAGE, FilteredCalls } from "./FilteredCalls";
import { useDebounced } from "../../api/useDebounced";

const PAGE = 200;
/** The table is this wide at least before the waterfall column shows. */
const WATERFALL_MIN_WIDTH = 900;

/** Open calls live in the URL (a call can be linked, and Back closes the one opened last); open marks are local. */
export function SessionView({ route }: { route: SessionRoute }) {
  const { id, call } = route;
  const [pages, setPages] = useState<number[]>([0]);
  const [filter, setFilter] = useState<CallFilter>(NO_FILTER);
  // The store is asked once typing pauses; the selects and the checkbox apply at once.
  const { value: text, settled } = useDebounced(filter.text.trim());
  const applied: CallFilter = { ...filter, text };
  const filtered = isFiltered(applied);
  // While typing, the count stands for the filter in the box, which has no answer yet.
  const counted = filtered || isFiltered(filter);
  const first = useOp("calls.find", findRequest(id, applied, 0, FILTER_PAGE), { enabled: filtered });
  const [openMarks, setOpenMarks] = useState<ReadonlySet<string>>(() => new Set());
  const calls = openCalls(route).join(",");
  const open = useMemo<ReadonlySet<string>>(
    () => new Set([...(calls ? calls.split(",").map((c) => `c${c}`) : []), ...openMarks]),
    [calls, openMarks],
  );
  const current = useRef(route);
  current.current = route;
  // The hash this view last pushed itself: a row opened by a click is already on screen, not scrolled to.
  const pushed = useRef<string | null>(null);
  const head = useOp("sessions.timeline", { sessionId: id, afterCallId: 0, limit: PAGE });
  // Narrow, the tool's name needs the room more than the waterfall (Duration still shows the latency).
  const box = useWidth<HTMLDivElement>(1000);
  const waterfall = box.width >= WATERFALL_MIN_WIDTH;
  const s = head.data?.session;
  const toggle = useCallback((key: string) => {
    if (key.startsWith("c")) {
      const next = toggleCall(current.current, Number(key.slice(1)));
      pushed.current = formatRoute(next);
      navigate(next);
      return;
    }
    setOpenMarks((o) => {
      const n = new Set(o);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  }, []);
  const closeAll = useCallback(() => {
    setOpenMarks(new Set());
    if (current.current.call === undefined) return;
    const next = sessionRoute(current.current.id, []);
    pushed.current = formatRoute(next);
    navigate(next);
  }, []);
  // A call named by a link, a reload, Back or Forward is scrolled to once its row is there.
  useEffect(() => {
    if (call && head.data && formatRoute(current.current) !== pushed.current)
      document.getElementById(`call-${call}`)?.scrollIntoView({ block: "center" });
  }, [call, head.data !== undefined]);
  return (
    <>
      <ViewHead
        title={
          <span>
            Session{" "}
            <span className="mono" title={visibleText(id)}>
              {shortId(id, 24)}
            </span>
            {s?.client && (
              <span className="muted" style={{ fontWeight: 400 }}>
                {" "}
                · {visibleText(s.client)}
              </span>
            )}
          </span>
        }
      >
        <CopyButton text={id} label="Copy id" />
        {s?.imported && (
          <a className="btn" href={formatRoute({ name: "replay", session: id })}>
            Replay it
          </a>
        )}
        <a className="btn" href={formatRoute({ name: "blobs", session: id })}>
          Its blobs
        </a>
      </ViewHead>
      <Progress on={head.loading || head.refreshing || (filtered && (first.loading || first.refreshing))} label="Loading the calls" />
      <div className="view-body">
        <ErrorNote error={head.error} />
        {s?.imported && (
          <div className="callout" data-testid="imported-note">
            Imported from {s.imported.agent}'s own history (read-only): {s.imported.project ?? "no project"} ·{" "}
            {s.imported.model ?? "model unknown"}. What the model was given is what the agent gave it; the replay lab shows what Spillway
            would have given instead.
          </div>
        )}
        {s && <SessionCards s={s} />}
        <CallFilterBar
          sessionId={id}
          filter={filter}
          onChange={setFilter}
          counts={
            counted
              ? {
                  matched: first.data?.matched ?? 0,
                  total: first.data?.total ?? 0,
                  pending: !settled || first.data === undefined || first.stale,
                }
              : null
          }
          onCloseAll={closeAll}
          canClose={open.size > 0}
        />
        <div ref={box.ref} style={{ border: "1px solid var(--border)", borderRadius: "0 0 7px 7px", overflowX: "auto" }}>
          <table className="table calls" data-testid="call-table">
            <colgroup>
              <col style={{ width: 130 }} />
              <col />
              <col style={{ width: 140 }} />
              <col style={{ width: 126 }} />
              <col style={{ width: 58 }} />
              <col style={{ width: 92 }} />
              <col style={{ width: 70 }} />
              {waterfall && <col style={{ width: 116 }} />}
            </colgroup>
            <thead>
              <tr>
                <th>Started</th>
                <th>Tool</th>
                <th>Outcome</th>
                <th className="num" title="Chars the tool returned → chars the model was given">
                  Returned → given
                </th>
                <th className="num">Reads</th>
                <th>By reference</th>
                <th className="num">Duration</th>
                {waterfall && <th>Waterfall</th>}
              </tr>
            </thead>
            {filtered ? (
              <FilteredCalls
                key={JSON.stringify(applied)}
                id={id}
                filter={applied}
                open={open}
                onToggle={toggle}
                waterfall={waterfall}
                typing={!settled}
              />
            ) : (
              pages.map((after, i) => (
                <PageRows
                  key={after}
                  id={id}
                  after={after}
                  open={open}
                  onToggle={toggle}
                  waterfall={waterfall}
                  onMore={i === pages.length - 1 ? (next) => setPages((p) => [...p, next]) : undefined}
                />
              ))
            )}
          </table>
        </div>
      </div>
    </>
  );
}

function SessionCards({ s }: { s: SessionSummary }) {
  return (
    <div className="cards">
      <Card
        label="Calls"
        value={fmtInt(s.calls)}
        sub={`${fmtInt(s.rescued)} rescued · ${fmtInt(s.stubbed)} stubbed`}
        testId="session-calls"
      />
      <Card label="Failures" value={fmtInt(s.errors)} sub="failed calls and refused reads" testId="session-errors" />
      <Card
        label="Net saved"
        value={fmtTokens(s.netTokens, s.estimatedTokenCounts)}
        sub={`tokens · ${fmtInt(s.netChars)} chars${s.estimatedTokenCounts > 0 ? ` · ${estimatedResultsNote(s.estimatedTokenCounts, fmtInt(s.estimatedTokenCounts))}` : ""}`}
        testId="session-net"
      />
      <Card label="Read back" value={fmtInt(s.fetches)} sub={`fetches and recalls · ${fmtInt(s.pulledTokens)} tokens`} />
      <Card label="By reference" value={fmtCompact(s.refChars)} sub="chars passed tool to tool" />
      <Card label="Active" value={fmtAgo(s.lastSeenAt)} sub={`since ${fmtTime(s.createdAt)}`} />
      <Card label="Compactions" value={fmtInt(s.generation)} sub={`${fmtInt(s.turn)} turns`} />
    </div>
  );
}

function PageRows(p: {
  id: string;
  after: number;
  open: ReadonlySet<string>;
  onToggle: (k: string) => void;
  waterfall: boolean;
  onMore?: (next: number) => void;
}) {
  const { id, after, open, onToggle, onMore } = p;
  const t = useOp("sessions.timeline", { sessionId: id, afterCallId: after, limit: PAGE });
  const d = t.data;
  const colSpan = p.waterfall ? CALL_COLUMNS : CALL_COLUMNS - 1;
  if (!d)
    return (
      <tbody>
        <tr>
          <td colSpan={colSpan}>{t.error ? <ErrorNote error={t.error} /> : <span className="muted">Loading…</span>}</td>
        </tr>
      </tbody>
    );
  return (
    <tbody>
      {after === 0 && d.calls.length === 0 && d.marks.length === 0 && (
        <tr>
          <td colSpan={colSpan} className="muted">
            No calls recorded in this session.
          </td>
        </tr>
      )}
      <CallRows calls={d.calls} marks={d.marks} open={open} onToggle={onToggle} waterfall={p.waterfall} />
      {d.nextAfter !== null && onMore && (
        <tr>
          <td colSpan={colSpan}>
            <button type="button" className="btn small" onClick={() => onMore(d.nextAfter!)}>
              Load the next {PAGE} calls
            </button>
          </td>
        </tr>
      )}
    </tbody>
  );
}
