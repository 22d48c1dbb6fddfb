/** Blob: the content in a paged read-only viewer, the handle, outline, fetch tools and lineage. */
import { useCallback, useState } from "react";
import type { BlobDetail, Jump } from "../../../../core/inspector/api/contract";
import { useMutation, useOp } from "../../api/useOp";
import { useExport } from "../../api/useExport";
import type { ViewerMark } from "../../components/MonacoViewer/MonacoViewer";
import { Badge, ErrorNote, Progress, Tabs, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtInt, fmtTime, shortId, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";
import { useTheme } from "../../theme/theme";
import { ContentPane } from "./ContentPane";
import { FetchPanel } from "./FetchPanel";
import { LineagePanel } from "./LineagePanel";
import { labelFromText, labelledByContent } from "./labelText";
import { HandlePanel, OutlinePanel } from "./Panels";
import { firstLinesWindow, useBlobWindow, windowRequest } from "./useBlobWindow";

type Tab = "tools" | "handle" | "outline" | "lineage";
const REFRESH = ["blobs.list", "blobs.get", "blobs.content", "overview.get", "search.all"] as const;

export function BlobView({ id, line }: { id: string; line?: number }) {
  const detail = useOp("blobs.get", { id });
  // Asked for at once, beside the metadata: most blobs open by lines, and the viewer's own
  // request for that window then finds it in the cache (or in flight) instead of waiting.
  useOp("blobs.content", windowRequest(id, true, firstLinesWindow(line)));
  const d = detail.data;
  return (
    <>
      <ViewHead
        title={
          <span>
            Blob <span className="mono">{id}</span>
          </span>
        }
      >
        {d && <BlobHeadActions detail={d} />}
      </ViewHead>
      <Progress on={detail.loading || detail.refreshing} label="Loading the blob" />
      {detail.error && (
        <div className="view-body">
          <ErrorNote error={detail.error} />
        </div>
      )}
      {d && <BlobBody key={`${id}:${d.meta.state}`} detail={d} line={line} />}
    </>
  );
}

function BlobHeadActions({ detail }: { detail: BlobDetail }) {
  const m = detail.meta;
  const pin = useMutation(m.pinned ? "blobs.unpin" : "blobs.pin", [...REFRESH]);
  const purge = useMutation("blobs.purge", [...REFRESH]);
  const exp = useExport();
  const [confirm, setConfirm] = useState(false);
  const gone = m.state === "tombstoned";
  return (
    <div style={{ display: "flex", gap: 6, alignItems: "center" }}>
      <Badge value={m.kind} />
      <Badge value={m.label} title="Sensitivity label" />
      <span data-testid="blob-state">
        <Badge value={m.state} title={m.tombstoneReason ?? undefined} />
      </span>
      <button type="button" className="btn" disabled={gone || pin.pending} onClick={() => void pin.run({ ids: [m.id] })}>
        {m.pinned ? "Unpin" : "Pin"}
      </button>
      <button type="button" className="btn" disabled={gone || exp.pending} onClick={() => void exp.run(m.id)}>
        Export
      </button>
      <button
        type="button"
        className={`btn danger${confirm ? " primary" : ""}`}
        disabled={gone || purge.pending}
        onClick={() => (confirm ? (setConfirm(false), void purge.run({ ids: [m.id] })) : setConfirm(true))}
        onBlur={() => setConfirm(false)}
      >
        {confirm ? "Confirm purge" : "Purge"}
      </button>
      {exp.savedTo && (
        <span className="muted" role="status">
          Saved to {exp.savedTo}
        </span>
      )}
      <ErrorNote error={pin.error ?? purge.error ?? exp.error} />
    </div>
  );
}

function MetaLine({ detail }: { detail: BlobDetail }) {
  const m = detail.meta;
  return (
    <div
      className="toolbar"
      style={{ gap: "4px 16px", alignItems: "center", padding: "6px 16px", flexWrap: "wrap", whiteSpace: "nowrap" }}
      data-testid="blob-meta"
    >
      <span>
        <span className="muted">tool </span>
        <span className="mono">{visibleText(m.tool)}</span>
        {m.server && <span className="muted"> ({m.server})</span>}
      </span>
      <span>
        <span className="muted">session </span>
        <a className="mono" href={formatRoute({ name: "session", id: m.sessionId })} title={m.sessionId}>
          {shortId(m.sessionId, 24)}
        </a>
      </span>
      <span className="num">
        {fmtInt(m.chars)} chars · {fmtInt(m.lines)} lines
      </span>
      {!/^[\d,]+ lines$/.test(m.shape) && (
        <span
          className="mono muted"
          title={m.shape}
          style={{ maxWidth: "34%", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
        >
          {m.shape}
        </span>
      )}
      <span>
        <span className="muted">stored </span>
        {fmtTime(m.createdAt)}
      </span>
      {m.state === "live" && (
        <span>
          <span className="muted">expires </span>
          {fmtAgo(m.expiresAt)}
        </span>
      )}
      <span>
        <span className="muted">fetched </span>
        {fmtInt(m.fetchCount)}×
      </span>
      {/* A credential says why in its masking note; the other labels say it here. */}
      {detail.labelOrigin && !detail.maskable && (
        <span className="muted" data-testid="label-origin" style={{ whiteSpace: "normal" }}>
          labelled {detail.labelOrigin.label} {visibleText(labelFromText(detail.labelOrigin))}
        </span>
      )}
    </div>
  );
}

function BlobBody({ detail, line }: { detail: BlobDetail; line?: number }) {
  const m = detail.meta;
  const { theme } = useTheme();
  const [masked, setMasked] = useState(true);
  const [tab, setTab] = useState<Tab>(detail.handle ? "handle" : "tools");
  const [marks, setMarks] = useState<ViewerMark[]>(line !== undefined ? [{ line }] : []);
  const win = useBlobWindow(m, masked, line);
  const onJump = useCallback((j: Jump) => win.jump(j.line, j.startCol, j.endCol), [win.jump]);
  const onResult = useCallback((jumps: Jump[]) => setMarks(jumps.slice(0, 500)), []);
  if (m.state === "tombstoned") {
    return (
      <div className="view-body">
        <MetaLine detail={detail} />
        <div className="callout warn">
          This blob is a tombstone ({m.tombstoneReason ?? "removed"} {fmtAgo(m.tombstonedAt)}): its content is gone. A late fetch by an
          agent gets guidance to re-run {visibleText(m.tool)}.
        </div>
        <LineagePanel detail={detail} />
      </div>
    );
  }
  return (
    <>
      <MetaLine detail={detail} />
      {detail.maskable && (
        <div
          className="callout warn"
          style={{ margin: "6px 16px", display: "flex", gap: 10, alignItems: "center" }}
          data-testid="mask-note"
        >
          <span>
            Labelled <b>credential</b>
            {detail.labelOrigin && <span data-testid="label-origin"> {visibleText(labelFromText(detail.labelOrigin))}</span>}: shown{" "}
            {masked ? "masked, as the model sees it" : "REVEALED, exact bytes"}.
            {!labelledByContent(detail.labelOrigin) && " No secret was found in the result itself, so nothing in it is masked."}
          </span>
          <button type="button" className="btn small" onClick={() => setMasked((v) => !v)} aria-pressed={!masked}>
            {masked ? "Reveal secrets" : "Mask again"}
          </button>
        </div>
      )}
      <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr) minmax(340px, 38%)", flex: 1, minHeight: 0 }}>
        <ContentPane id={m.id} kind={m.kind} theme={theme} win={win} marks={marks} />
        <aside
          style={{ borderLeft: "1px solid var(--border)", display: "flex", flexDirection: "column", minHeight: 0 }}
          aria-label="Blob details"
        >
          <Tabs<Tab>
            label="Blob panels"
            value={tab}
            onChange={setTab}
            tabs={[
              { id: "handle", label: "Handle" },
              { id: "tools", label: "Fetch" },
              { id: "outline", label: "Outline" },
              { id: "lineage", label: "Lineage" },
            ]}
          />
          <div
            role="tabpanel"
            aria-labelledby={`tab-${tab}`}
            style={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0, overflow: "auto" }}
          >
            {tab === "handle" && <HandlePanel detail={detail} />}
            {/* Kept mounted, so a grep and its hits survive a look at another tab. */}
            <div
              hidden={tab !== "tools"}
              style={{ display: tab === "tools" ? "flex" : "none", flexDirection: "column", flex: 1, minHeight: 0 }}
            >
              <FetchPanel id={m.id} masked={detail.maskable && masked} onJump={onJump} onResult={onResult} />
            </div>
            {tab === "outline" && <OutlinePanel id={m.id} masked={detail.maskable && masked} onJump={onJump} />}
            {tab === "lineage" && <LineagePanel detail={detail} />}
          </div>
        </aside>
      </div>
    </>
  );
}
