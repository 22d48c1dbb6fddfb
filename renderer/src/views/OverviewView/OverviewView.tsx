/** Overview: net savings over time and per tool, upstream and session; store use; live counters. */
import { useState } from "react";
import type { LedgerEvent } from "../../../../core/inspector/api/contract";
import { useMutation, useOp } from "../../api/useOp";
import { BarList } from "../../components/SavingsChart/BarList";
import { SavingsTimeChart } from "../../components/SavingsChart/SavingsTimeChart";
import { toBars, type Unit } from "../../components/SavingsChart/figures";
import { ConnectHint } from "../../components/ConnectHint/ConnectHint";
import { Card, ErrorNote, Panel, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtBytes, fmtCompact, fmtInt, fmtShortTime, fmtTime, fmtTokens, pct, shortId } from "../../format/format";
import { estimatedResultsNote } from "../../../../core/vocabulary";
import { formatRoute } from "../../router/route";

export function OverviewView() {
  const [unit, setUnit] = useState<Unit>("tokens");
  const [period, setPeriod] = useState<"hour" | "day" | null>(null);
  const ov = useOp("overview.get", {});
  const history = useOp("history.summary", {});
  const sweep = useMutation("store.sweep", ["overview.get", "blobs.list"]);
  const d = ov.data;
  const t = d?.total;
  // Hours while all activity fits in the last two days; days after that.
  const per = period ?? (d && d.byDay.length > 2 ? "day" : "hour");
  return (
    <>
      <ViewHead title="Overview">
        <div className="seg" role="group" aria-label="Unit">
          {(["tokens", "chars"] as const).map((u) => (
            <button key={u} type="button" aria-pressed={unit === u} onClick={() => setUnit(u)}>
              {u}
            </button>
          ))}
        </div>
        <button type="button" className="btn" disabled={sweep.pending} onClick={() => void sweep.run({})}>
          {sweep.pending ? "Sweeping…" : "Sweep now"}
        </button>
      </ViewHead>
      <Progress on={ov.loading || ov.refreshing || sweep.pending} label="Loading the overview" />
      <div className="view-body">
        <ErrorNote error={ov.error ?? sweep.error} />
        <div className="cards">
          <Card
            testId="card-net"
            label={`Net saved (${unit})`}
            value={t ? (unit === "tokens" ? fmtTokens(t.netTokens, t.estimatedTokenCounts) : fmtInt(t.netChars)) : "–"}
            sub={
              t
                ? unit === "tokens"
                  ? `${fmtTokens(t.returnedTokens, t.estimatedTokenCounts)} returned · ${fmtInt(t.givenTokens)} given` +
                    (t.estimatedTokenCounts > 0 ? ` · ${estimatedResultsNote(t.estimatedTokenCounts, fmtInt(t.estimatedTokenCounts))}` : "")
                  : `${fmtInt(t.returnedChars)} returned · ${fmtInt(t.givenChars)} given`
                : " "
            }
          />
          {history.data?.wouldSave && (
            <Card
              testId="card-would-save"
              label="Would have saved (imported history)"
              value={<a href={formatRoute({ name: "replay" })}>{fmtInt(history.data.wouldSave.saved)}</a>}
              sub={`prompt tokens, ${(history.data.wouldSave.savedShare * 100).toFixed(1)} % of ${fmtInt(history.data.wouldSave.asHappened)} re-sent over ${fmtInt(history.data.wouldSave.requests)} requests of ${fmtInt(history.data.sessions)} imported sessions`}
            />
          )}
          <Card
            testId="card-calls"
            label="Calls"
            value={fmtInt(d?.store.calls)}
            sub={t && d ? `${fmtInt(t.rescued)} rescued · ${fmtInt(t.stubbed)} stubbed · ${fmtInt(d.failures.calls)} failed` : " "}
          />
          <Card
            testId="card-reference"
            label={`By reference (${unit})`}
            value={d ? (unit === "tokens" ? fmtInt(d.byReference.tokens) : fmtCompact(d.byReference.chars)) : "–"}
            sub={d ? `${fmtInt(d.byReference.expanded)} spill: passed · ${fmtInt(d.byReference.denied)} denied · never in context` : " "}
          />
          <Card
            testId="card-store"
            label="Store"
            value={d ? fmtBytes(d.store.usedBytes) : "–"}
            sub={
              d ? (
                <>
                  of {fmtBytes(d.store.capBytes)} cap ({pct(d.store.usedBytes, d.store.capBytes)})
                  <div
                    className="meter"
                    role="meter"
                    aria-label="Store use against its cap"
                    aria-valuemin={0}
                    aria-valuemax={d.store.capBytes}
                    aria-valuenow={d.store.usedBytes}
                  >
                    <div style={{ width: `${Math.min(100, (d.store.usedBytes / Math.max(1, d.store.capBytes)) * 100)}%` }} />
                  </div>
                </>
              ) : (
                " "
              )
            }
          />
          <Card
            testId="card-blobs"
            label="Blobs"
            value={fmtInt(d ? d.store.live + d.store.pinned : null)}
            sub={
              d
                ? `${fmtInt(d.store.pinned)} pinned · ${fmtInt(d.store.tombstoned)} tombstoned · ${fmtInt(d.store.encrypted)} encrypted`
                : " "
            }
          />
          <Card
            testId="card-sessions"
            label="Sessions"
            value={fmtInt(d?.store.sessions)}
            sub={d?.store.lastCallAt ? `last call ${fmtAgo(d.store.lastCallAt)}` : "no calls yet"}
          />
          {t && t.pendingTokenCounts > 0 && (
            <Card label="Counting tokens" value={fmtInt(t.pendingTokenCounts)} sub="calls still being tokenized" />
          )}
        </div>
        {d && d.store.calls === 0 ? (
          <ConnectHint what="No tool calls yet" />
        ) : (
          <div className="grid-2">
            <Panel
              title={`Savings over time (${unit}, per UTC ${per})`}
              testId="panel-time"
              actions={
                <div className="seg" role="group" aria-label="Period">
                  {(["hour", "day"] as const).map((p) => (
                    <button key={p} type="button" aria-pressed={per === p} onClick={() => setPeriod(p)}>
                      {p === "hour" ? "48 h" : "days"}
                    </button>
                  ))}
                </div>
              }
            >
              <div className="panel-body">
                {d && <SavingsTimeChart bars={toBars(per === "hour" ? d.byHour : d.byDay, unit)} unit={unit} period={per} />}
              </div>
            </Panel>
            <Panel title={`Net saved per tool (${unit})`}>
              <BarList
                testId="savings-by-tool"
                bars={toBars(d?.byTool ?? [], unit)}
                unit={unit}
                emptyText="No calls yet."
                renderKey={(k) => <a href={formatRoute({ name: "blobs", tool: k })}>{k}</a>}
              />
            </Panel>
            <Panel title={`Net saved per upstream (${unit})`}>
              <BarList testId="savings-by-server" bars={toBars(d?.byServer ?? [], unit)} unit={unit} emptyText="No calls yet." />
            </Panel>
            <Panel title={`Net saved per session (${unit}, top 12)`}>
              <BarList
                testId="savings-by-session"
                bars={toBars(d?.bySession ?? [], unit)}
                unit={unit}
                emptyText="No sessions yet."
                renderKey={(k) => (
                  <a href={formatRoute({ name: "session", id: k })} title={k}>
                    {shortId(k, 28)}
                  </a>
                )}
              />
            </Panel>
            <Panel title="Recent activity" testId="recent" span={2}>
              <RecentEvents events={d?.recent ?? []} />
            </Panel>
          </div>
        )}
      </div>
    </>
  );
}

function RecentEvents({ events }: { events: LedgerEvent[] }) {
  if (events.length === 0) return <p className="muted panel-body">Nothing yet.</p>;
  return (
    <table className="table" style={{ tableLayout: "fixed" }}>
      <colgroup>
        <col style={{ width: 96 }} />
        <col style={{ width: 108 }} />
        <col />
        <col style={{ width: "24%" }} />
        <col style={{ width: 76 }} />
        <col style={{ width: 112 }} />
      </colgroup>
      <thead>
        <tr>
          <th>Time</th>
          <th>Event</th>
          <th>Tool</th>
          <th>Session</th>
          <th className="num">Chars</th>
          <th>Blob</th>
        </tr>
      </thead>
      <tbody>
        {events.slice(0, 12).map((e) => (
          <tr key={e.id}>
            <td className="mono" title={fmtTime(e.ts)}>
              {fmtShortTime(e.ts)}
            </td>
            <td>{e.data?.error === true ? `${e.type} ✕` : e.type}</td>
            <td className="mono" title={e.tool ?? undefined}>
              {e.tool ?? "–"}
            </td>
            <td className="mono" title={e.sessionId ?? undefined}>
              {e.sessionId ? (
                <a href={formatRoute({ name: "session", id: e.sessionId, ...(e.callId ? { call: e.callId } : {}) })}>
                  {shortId(e.sessionId, 12)}
                </a>
              ) : e.type === "fetch" ? (
                "operator"
              ) : (
                "–"
              )}
            </td>
            <td className="num">{e.chars ? fmtInt(e.chars) : ""}</td>
            <td className="mono">{e.blobId ? <a href={formatRoute({ name: "blob", id: e.blobId })}>{e.blobId}</a> : "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
