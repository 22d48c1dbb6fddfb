/**
 * A blob's lineage: the call that produced it, the sessions that hold it, every call that returned
 * it (each opening its call), and every read, expansion and lifecycle event, each read opening
 * onto the answer it gave. Rows wrap instead of cutting, so they read at any width.
 */
import type { BlobDetail, LedgerEvent } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { Badge } from "../../components/Ui/Ui";
import { TextPane } from "../../components/TextPane/TextPane";
import { fmtInt, fmtMs, fmtShortTime, fmtTime, shortId, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";
import { readerOf, readText, removedText } from "../SessionView/callText";

function describe(e: LedgerEvent): string {
  const d = e.data ?? {};
  switch (e.type) {
    case "fetch":
    case "recall":
    case "expansion":
      return readText(e);
    case "label":
      return `${d.from ? `${String(d.from)} → ` : ""}${String(d.to ?? "")}${Array.isArray(d.reasons) && d.reasons.length ? ` (${d.reasons.join(", ")})` : ""}`;
    case "evict":
      return "evicted to stay under the size cap";
    case "sweep":
      return `swept: ${String(d.reason ?? "expired")}`;
    case "pin":
    case "unpin":
    case "purge":
      return `${e.type} by the operator`;
    default:
      return e.type;
  }
}

/** Who did it; `link` false inside a summary, which may hold no other control. */
function Who({ e, link }: { e: LedgerEvent; link: boolean }) {
  if (!e.sessionId) return <span className="muted">{e.type === "fetch" || e.type === "recall" ? readerOf(e) : "operator"}</span>;
  if (!link)
    return (
      <span className="mono" title={e.sessionId}>
        {shortId(e.sessionId, 14)}
      </span>
    );
  return (
    <a className="mono" href={formatRoute({ name: "session", id: e.sessionId })} title={e.sessionId}>
      {shortId(e.sessionId, 14)}
    </a>
  );
}

function EventAnswer({ id }: { id: number }) {
  const d = useOp("events.get", { eventId: id });
  const a = d.data?.event.answer;
  if (!d.data) return <p className="muted">Loading…</p>;
  if (!a)
    return (
      <p className="muted" style={{ margin: 0 }}>
        {d.data.event.detailRemovedAt !== null
          ? removedText(d.data.event.detailRemovedAt, d.data.event.ts, "read")
          : d.data.event.data?.answer === "the whole blob"
            ? "The whole blob, as the session may see it."
            : "The answer was not kept (it went with the content, or predates kept answers)."}
      </p>
    );
  return (
    <TextPane
      title="What it gave"
      text={a.text}
      totalChars={a.totalChars}
      truncated={a.truncated}
      testId="lineage-answer"
      maxHeight={240}
    />
  );
}

function EventRow({ e }: { e: LedgerEvent }) {
  const refused = e.data?.error === true || e.data?.refused === true || e.data?.outcome === "denied";
  const readable = e.type === "fetch" || e.type === "recall" || e.type === "expansion";
  const head = (link: boolean) => (
    <>
      <span className="mono muted" title={fmtTime(e.ts)}>
        {fmtShortTime(e.ts)}
      </span>
      <span>
        <Badge value={refused ? "refused" : e.type} title={e.type} />
      </span>
      <span className="ledger-what">
        <Who e={e} link={link} /> <span className="mono">{describe(e)}</span>
        {e.durationMs !== null && <span className="muted"> · {fmtMs(e.durationMs)}</span>}
      </span>
    </>
  );
  if (!readable) return <li className="ledger-row">{head(true)}</li>;
  return (
    <li>
      <details>
        <summary className="ledger-row">{head(false)}</summary>
        <div style={{ padding: "4px 0 8px" }}>
          {e.sessionId && (
            <p className="muted" style={{ margin: "0 0 4px" }}>
              By session{" "}
              <a className="mono" href={formatRoute({ name: "session", id: e.sessionId })}>
                {visibleText(e.sessionId)}
              </a>
            </p>
          )}
          <EventAnswer id={e.id} />
        </div>
      </details>
    </li>
  );
}

export function LineagePanel({ detail }: { detail: BlobDetail }) {
  const l = detail.lineage;
  return (
    <div className="panel-body" style={{ overflow: "auto", display: "flex", flexDirection: "column", gap: 14 }} data-testid="lineage">
      <section>
        <h3 className="sub">Produced by</h3>
        {l.producedBy ? (
          <p style={{ margin: 0 }}>
            <span className="mono">{visibleText(l.producedBy.tool)}</span>
            {l.producedBy.server ? <span className="muted"> on {l.producedBy.server}</span> : null} in session{" "}
            <a href={formatRoute({ name: "session", id: l.producedBy.sessionId, call: l.producedBy.id })} title={l.producedBy.sessionId}>
              {shortId(l.producedBy.sessionId, 30)}
            </a>{" "}
            at {fmtTime(l.producedBy.ts)}
          </p>
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            No call recorded (put into the store directly).
          </p>
        )}
      </section>
      <section>
        <h3 className="sub">
          Held by {fmtInt(l.heldBy.length)} session{l.heldBy.length === 1 ? "" : "s"}
        </h3>
        <ul className="list ledger-list">
          {l.heldBy.map((h) => (
            <li key={h.sessionId} className="ledger-row">
              <span className="mono muted" title={fmtTime(h.firstSeenAt)}>
                {fmtShortTime(h.firstSeenAt)}
              </span>
              <span className="muted">gen {h.generation}</span>
              <span className="ledger-what">
                <a href={formatRoute({ name: "session", id: h.sessionId })} className="mono" title={h.sessionId}>
                  {shortId(h.sessionId, 14)}
                </a>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="sub">Calls that returned it ({fmtInt(l.calls.length)})</h3>
        <ul className="list ledger-list" data-testid="lineage-calls">
          {l.calls.map((c) => (
            <li key={`${c.id}:${c.outcome}:${c.blobId}`} className="ledger-row">
              <span className="mono muted" title={fmtTime(c.ts)}>
                {fmtShortTime(c.ts)}
              </span>
              <span>
                <Badge value={c.outcome} />
              </span>
              <span className="ledger-what">
                <a
                  href={formatRoute({ name: "session", id: c.sessionId, call: c.id })}
                  title={`Open this call in session ${c.sessionId}`}
                  className="mono"
                >
                  {shortId(c.sessionId, 14)}
                </a>{" "}
                <span>
                  {fmtInt(c.returnedChars)} → {fmtInt(c.givenChars)} chars given
                </span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="sub">Reads, expansions and lifecycle ({fmtInt(l.events.length)})</h3>
        {l.events.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            Nothing has read it back yet.
          </p>
        ) : (
          <ul className="list ledger-list" data-testid="lineage-events">
            {l.events.map((e) => (
              <EventRow key={e.id} e={e} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
