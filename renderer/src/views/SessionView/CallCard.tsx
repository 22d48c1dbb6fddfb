/** One call of a session's timeline: what the tool returned beside what the model was given, then what read it back. */
import type { LedgerEvent, TextPreview, TimelineCall } from "../../../../core/inspector/api/contract";
import { Badge } from "../../components/Ui/Ui";
import { fmtInt, fmtTime } from "../../format/format";
import { formatRoute } from "../../router/route";

function TextBox({ title, t, blobId, testId }: { title: string; t: TextPreview; blobId: string | null; testId: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <div className="muted" style={{ fontSize: 11, margin: "0 0 3px", display: "flex", gap: 8 }}>
        <span style={{ textTransform: "uppercase", letterSpacing: ".4px" }}>{title}</span>
        <span className="num">{fmtInt(t.totalChars)} chars</span>
        {t.truncated && blobId && <a href={formatRoute({ name: "blob", id: blobId })}>open the whole blob</a>}
      </div>
      {t.source === "missing" ? (
        <p className="muted" style={{ margin: 0 }}>Not kept: the content was neither stored nor small enough to log.</p>
      ) : (
        <pre tabIndex={0} className="text" data-testid={testId} style={{ maxHeight: 260 }}>
          {t.text}
          {t.truncated ? `\n… ${fmtInt(t.totalChars - t.text.length)} more chars` : ""}
        </pre>
      )}
    </div>
  );
}

export function touchText(e: LedgerEvent): string {
  const d = e.data ?? {};
  if (e.type === "fetch") {
    const args = d.args && typeof d.args === "object" && Object.keys(d.args).length ? ` ${JSON.stringify(d.args)}` : "";
    return `rescuer_fetch ${String(d.mode ?? "")}${args} → ${fmtInt(e.chars)} chars${d.truncated ? " (cut at the cap)" : ""}`;
  }
  if (e.type === "recall") return `recall_result → ${d.refused ? "refused, over the full cap" : `${fmtInt(e.chars)} chars`}`;
  if (e.type === "expansion") return `spill:${e.blobId} ${String(d.outcome ?? "")} into ${e.tool ?? "?"}${d.reason ? ` (${String(d.reason)})` : ""}${e.chars ? `, ${fmtInt(e.chars)} chars` : ""}`;
  return `${e.type}${e.blobId ? ` ${e.blobId}` : ""}`;
}

export function CallCard({ tc }: { tc: TimelineCall }) {
  const c = tc.call;
  // An imported call the agent cut (a persisted preview) is a pass-through with less given than returned.
  const same = c.outcome === "passthrough" && c.givenChars === c.returnedChars;
  return (
    <article className="panel" data-testid="call" data-outcome={c.outcome} style={{ marginBottom: 10 }} aria-label={`${c.tool} at ${fmtTime(c.ts)}`}>
      <h2>
        <span className="mono">{fmtTime(c.ts)}</span>
        <span className="mono">{c.tool}</span>
        {c.server && <span className="muted">{c.server}</span>}
        <Badge value={c.outcome} />
        {c.isError && <Badge value="failed_open" title="The tool reported an error" />}
        <span className="spacer" />
        <span className="num muted">
          {fmtInt(c.returnedChars)} → {fmtInt(c.givenChars)} chars
          {c.returnedTokens !== null && c.givenTokens !== null ? ` · ${fmtInt(c.returnedTokens)} → ${fmtInt(c.givenTokens)} tokens` : ""}
        </span>
        {tc.blob && (
          <a className="mono" href={formatRoute({ name: "blob", id: tc.blob.id })} title={`${tc.blob.kind}, ${tc.blob.label}, ${tc.blob.state}`}>
            {tc.blob.id}
          </a>
        )}
      </h2>
      <div className="panel-body">
        {c.argsJson && c.argsJson !== "{}" && (
          <p className="mono muted" style={{ margin: "0 0 6px", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} title={c.argsJson}>
            args {c.argsJson}
          </p>
        )}
        {same ? (
          <TextBox title="Tool returned = model was given" t={tc.raw} blobId={tc.blob?.id ?? null} testId="raw" />
        ) : (
          <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 10 }}>
            <TextBox title="Tool returned" t={tc.raw} blobId={tc.blob?.id ?? null} testId="raw" />
            <TextBox title={c.outcome === "stubbed" ? "Model was given (stub)" : c.outcome === "passthrough" ? "Model was given (cut by the agent)" : "Model was given (handle)"} t={tc.given} blobId={null} testId="given" />
          </div>
        )}
        {tc.touches.length > 0 && (
          <ul className="list" style={{ marginTop: 8 }} aria-label="Read back later">
            {tc.touches.map((e) => (
              <li key={e.id} className="mono" style={{ padding: "3px 0", fontSize: 12 }} data-testid="touch">
                <span className="muted">{fmtTime(e.ts)} </span>
                {touchText(e)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}
