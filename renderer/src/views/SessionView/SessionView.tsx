/** A session's timeline of calls, oldest first, read a page at a time. */
import { useState } from "react";
import type { LedgerEvent, SessionSummary } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { Card, ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtInt, fmtTime } from "../../format/format";
import { formatRoute } from "../../router/route";
import { CallCard, touchText } from "./CallCard";

export function SessionView({ id }: { id: string }) {
  const [pages, setPages] = useState<number[]>([0]);
  const head = useOp("sessions.timeline", { sessionId: id, afterCallId: 0, limit: 100 });
  const s = head.data?.session;
  return (
    <>
      <ViewHead title={<span>Session <span className="mono">{id}</span></span>}>
        {s?.imported && <a className="btn" href={formatRoute({ name: "replay", session: id })}>Replay it</a>}
        <a className="btn" href={formatRoute({ name: "blobs", session: id })}>Its blobs</a>
      </ViewHead>
      <Progress on={head.loading || head.refreshing} label="Loading the timeline" />
      <div className="view-body">
        <ErrorNote error={head.error} />
        {s?.imported && (
          <div className="callout" data-testid="imported-note">
            Imported from {s.imported.agent}'s own history (read-only): {s.imported.project ?? "no project"} · {s.imported.model ?? "model unknown"}. What the model was
            given is what the agent gave it; the replay lab shows what Spillway would have given instead.
          </div>
        )}
        {s && <SessionCards s={s} />}
        {pages.map((after, i) => (
          <TimelinePage key={after} id={id} after={after} onMore={i === pages.length - 1 ? (next) => setPages((p) => [...p, next]) : undefined} />
        ))}
      </div>
    </>
  );
}

function SessionCards({ s }: { s: SessionSummary }) {
  return (
    <div className="cards">
      <Card label="Calls" value={fmtInt(s.calls)} sub={`${fmtInt(s.rescued)} rescued · ${fmtInt(s.stubbed)} stubbed`} />
      <Card label="Net saved" value={`${fmtInt(s.netTokens)}`} sub={`tokens · ${fmtInt(s.netChars)} chars`} />
      <Card label="Read back" value={fmtInt(s.fetches)} sub={`fetches and recalls · ${fmtInt(s.pulledTokens)} tokens`} />
      <Card label="Holds" value={fmtInt(s.blobs)} sub="blobs" />
      <Card label="Active" value={fmtAgo(s.lastSeenAt)} sub={`since ${fmtTime(s.createdAt)}${s.client ? ` · ${s.client}` : ""}`} />
      <Card label="Compactions" value={fmtInt(s.generation)} sub={`${fmtInt(s.turn)} turns marked`} />
    </div>
  );
}

function TimelinePage({ id, after, onMore }: { id: string; after: number; onMore?: (next: number) => void }) {
  const t = useOp("sessions.timeline", { sessionId: id, afterCallId: after, limit: 100 });
  const d = t.data;
  if (!d) return <ErrorNote error={t.error} />;
  if (after === 0 && d.calls.length === 0) return <p className="muted">No calls recorded in this session.</p>;
  return (
    <section aria-label={after === 0 ? "Calls" : `Calls after ${after}`}>
      {d.calls.map((c) => (
        <CallCard key={c.call.id} tc={c} />
      ))}
      {d.other.length > 0 && <OtherEvents events={d.other} />}
      {d.nextAfter !== null && onMore && (
        <button type="button" className="btn" onClick={() => onMore(d.nextAfter!)}>
          Load more calls
        </button>
      )}
    </section>
  );
}

function OtherEvents({ events }: { events: LedgerEvent[] }) {
  return (
    <details className="panel" style={{ padding: "6px 12px", marginBottom: 10 }}>
      <summary className="muted">{fmtInt(events.length)} other session events (compactions, turns, reads of other sessions' blobs)</summary>
      <ul className="list">
        {events.map((e) => (
          <li key={e.id} className="mono" style={{ padding: "2px 0", fontSize: 12 }}>
            <span className="muted">{fmtTime(e.ts)} </span>
            {touchText(e)}
          </li>
        ))}
      </ul>
    </details>
  );
}
