/** The blob's side panels: the handle as the model saw it, the outline, and the lineage. */
import type { BlobDetail, Jump, LedgerEvent } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { Badge, CopyButton, ErrorNote, Progress } from "../../components/Ui/Ui";
import { fmtInt, fmtTime, shortId } from "../../format/format";
import { formatRoute } from "../../router/route";
import { HitList } from "./HitList";

export function HandlePanel({ detail }: { detail: BlobDetail }) {
  const h = detail.handle;
  if (!h) {
    return (
      <p className="panel-body muted">
        This content was never replaced by a handle: it stayed under the rescue threshold, so the model got it in full (or, when repeated, as a one-line stub).
      </p>
    );
  }
  return (
    <div className="panel-body" style={{ overflow: "auto" }}>
      <p className="muted" style={{ marginTop: 0 }}>
        Given to session <a href={formatRoute({ name: "session", id: h.sessionId })}>{shortId(h.sessionId, 30)}</a> at {fmtTime(h.ts)} instead of{" "}
        {fmtInt(detail.meta.chars)} chars. <CopyButton text={h.text} label="Copy" />
      </p>
      <pre tabIndex={0} className="text" data-testid="handle-text" style={{ maxHeight: "none" }}>{h.text}</pre>
    </div>
  );
}

export function OutlinePanel({ id, masked, onJump }: { id: string; masked: boolean; onJump: (j: Jump) => void }) {
  const r = useOp("fetch.run", { id, mode: "outline", args: {}, masked });
  return (
    <div style={{ overflow: "auto", flex: 1, minHeight: 0 }}>
      <Progress on={r.loading} label="Building the outline" />
      <ErrorNote error={r.error} />
      {r.data && r.data.jumps.length > 0 && <HitList jumps={r.data.jumps} onJump={onJump} testId="outline-hits" />}
      {r.data && <pre tabIndex={0} className="text" style={{ margin: 10, maxHeight: "none" }}>{r.data.text}</pre>}
    </div>
  );
}

function describe(e: LedgerEvent): string {
  const d = e.data ?? {};
  switch (e.type) {
    case "fetch": {
      const args = d.args && typeof d.args === "object" ? JSON.stringify(d.args) : "";
      return `${String(d.mode ?? "")} ${args !== "{}" ? args : ""} → ${fmtInt(e.chars)} chars${d.truncated ? " (cut)" : ""}`;
    }
    case "recall":
      return d.refused ? "refused (over the full cap)" : `${fmtInt(e.chars)} chars${d.masked ? ", masked" : ""}`;
    case "expansion":
      return `${String(d.outcome ?? "")} into ${e.tool ?? "?"}${d.reason ? `: ${String(d.reason)}` : ""}`;
    case "label":
      return `${d.from ? `${String(d.from)} → ` : ""}${String(d.to ?? "")}${Array.isArray(d.reasons) && d.reasons.length ? ` (${d.reasons.join(", ")})` : ""}`;
    case "evict":
      return `evicted to stay under the size cap`;
    case "sweep":
      return `swept: ${String(d.reason ?? "expired")}`;
    default:
      return "";
  }
}

export function LineagePanel({ detail }: { detail: BlobDetail }) {
  const l = detail.lineage;
  return (
    <div className="panel-body" style={{ overflow: "auto", display: "flex", flexDirection: "column", gap: 12 }} data-testid="lineage">
      <section>
        <h3 style={{ fontSize: 12, margin: "0 0 4px" }}>Produced by</h3>
        {l.producedBy ? (
          <p style={{ margin: 0 }}>
            <span className="mono">{l.producedBy.tool}</span>
            {l.producedBy.server ? <span className="muted"> on {l.producedBy.server}</span> : null} in session{" "}
            <a href={formatRoute({ name: "session", id: l.producedBy.sessionId })}>{shortId(l.producedBy.sessionId, 30)}</a> at {fmtTime(l.producedBy.ts)}
          </p>
        ) : (
          <p className="muted" style={{ margin: 0 }}>No call recorded.</p>
        )}
      </section>
      <section>
        <h3 style={{ fontSize: 12, margin: "0 0 4px" }}>Seen by {fmtInt(l.heldBy.length)} session{l.heldBy.length === 1 ? "" : "s"}</h3>
        <ul className="list">
          {l.heldBy.map((h) => (
            <li key={h.sessionId} style={{ padding: "2px 0" }}>
              <a href={formatRoute({ name: "session", id: h.sessionId })} className="mono">{shortId(h.sessionId, 36)}</a>{" "}
              <span className="muted">first {fmtTime(h.firstSeenAt)}, generation {h.generation}</span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 style={{ fontSize: 12, margin: "0 0 4px" }}>Calls that returned it ({fmtInt(l.calls.length)})</h3>
        <table className="table">
          <tbody>
            {l.calls.map((c) => (
              <tr key={c.id}>
                <td className="mono" style={{ width: 140 }}>{fmtTime(c.ts)}</td>
                <td style={{ width: 90 }}><Badge value={c.outcome} /></td>
                <td className="mono"><a href={formatRoute({ name: "session", id: c.sessionId })}>{shortId(c.sessionId, 24)}</a></td>
                <td className="num" style={{ width: 110 }}>{fmtInt(c.givenChars)} given</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h3 style={{ fontSize: 12, margin: "0 0 4px" }}>Fetches, recalls, expansions and lifecycle ({fmtInt(l.events.length)})</h3>
        {l.events.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>Nothing has read it back yet.</p>
        ) : (
          <table className="table" data-testid="lineage-events">
            <tbody>
              {l.events.map((e) => (
                <tr key={e.id}>
                  <td className="mono" style={{ width: 140 }}>{fmtTime(e.ts)}</td>
                  <td style={{ width: 80 }}>{e.type}</td>
                  <td className="mono" style={{ width: 130 }} title={e.sessionId ?? "operator"}>{e.sessionId ? shortId(e.sessionId, 18) : "inspector/CLI"}</td>
                  <td className="mono" title={describe(e)}>{describe(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
