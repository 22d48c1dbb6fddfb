/** The blob's side panels: the handle as the model saw it, the outline, and the lineage. */
import { useState } from "react";
import type { BlobDetail, Jump } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { CopyButton, ErrorNote, Progress } from "../../components/Ui/Ui";
import { fmtInt, fmtTime, shortId } from "../../format/format";
import { formatRoute } from "../../router/route";
import { HitList } from "./HitList";

/** The handle as the model saw it: by default the one given to the session the header names; each other session's on request. */
export function HandlePanel({ detail }: { detail: BlobDetail }) {
  const [callId, setCallId] = useState<number | null>(detail.handle?.callId ?? null);
  const h = detail.handles.find((x) => x.callId === callId) ?? detail.handle;
  if (!h) {
    return (
      <p className="panel-body muted">
        This content was never replaced by a handle: it stayed under the rescue threshold, so the model got it in full (or, when repeated,
        as a one-line stub).
      </p>
    );
  }
  return (
    <div className="panel-body" style={{ overflow: "auto" }}>
      <p className="muted" style={{ marginTop: 0 }} data-testid="handle-session">
        Given to session{" "}
        <a href={formatRoute({ name: "session", id: h.sessionId, call: h.callId })} title={h.sessionId}>
          {shortId(h.sessionId, 30)}
        </a>{" "}
        at {fmtTime(h.ts)} instead of {fmtInt(detail.meta.chars)} chars. <CopyButton text={h.text} label="Copy" />
      </p>
      {detail.handles.length > 1 && (
        <label className="check" style={{ marginBottom: 8 }}>
          <span className="muted">Handle given to</span>
          <select
            className="input"
            value={h.callId}
            onChange={(e) => setCallId(Number(e.target.value))}
            aria-label="Handle given to session"
          >
            {detail.handles.map((x) => (
              <option key={x.callId} value={x.callId}>
                {shortId(x.sessionId, 24)} at {fmtTime(x.ts)}
              </option>
            ))}
          </select>
        </label>
      )}
      <pre tabIndex={0} className="text" data-testid="handle-text" style={{ maxHeight: "none" }}>
        {h.text}
      </pre>
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
      {r.data && (
        <pre tabIndex={0} className="text" style={{ margin: 10, maxHeight: "none" }}>
          {r.data.text}
        </pre>
      )}
    </div>
  );
}
