/** The content pane: a pager bar over the Monaco window, with go-to-line and a position slider. */
import { lazy, Suspense, useState, type FormEvent } from "react";
import type { ContentPage } from "../../../../core/inspector/api/contract";
import type { ViewerMark } from "../../components/MonacoViewer/MonacoViewer";
import { ErrorNote, Progress } from "../../components/Ui/Ui";
import { fmtInt } from "../../format/format";
import type { useBlobWindow } from "./useBlobWindow";

const MonacoViewer = lazy(() => import("../../components/MonacoViewer/MonacoViewer"));

export interface ContentPaneProps {
  id: string;
  kind: string;
  theme: "light" | "dark";
  win: ReturnType<typeof useBlobWindow>;
  marks: ViewerMark[];
}

function span(p: ContentPage): string {
  if (p.by === "lines") return p.end > p.start ? `lines ${fmtInt(p.start)}–${fmtInt(p.end - 1)} of ${fmtInt(p.totalLines)}` : `0 lines`;
  return `chars ${fmtInt(p.start)}–${fmtInt(Math.max(p.start, p.end - 1))} of ${fmtInt(p.totalChars)} (from line ${fmtInt(p.firstLine)})`;
}

export function ContentPane({ id, kind, theme, win, marks }: ContentPaneProps) {
  const p = win.page.data;
  const [goto, setGoto] = useState("");
  const [wrap, setWrap] = useState(win.byChars);
  const [topLine, setTopLine] = useState(0);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(goto);
    if (Number.isInteger(n) && n >= 0) win.jump(Math.min(n, Math.max(0, (p?.totalLines ?? 1) - 1)));
  };
  return (
    <div style={{ display: "flex", flexDirection: "column", minHeight: 0, minWidth: 0, flex: 1 }}>
      <div className="toolbar" style={{ alignItems: "center", padding: "5px 10px" }}>
        <span className="num muted" data-testid="window-span" style={{ minWidth: 260, textAlign: "left" }}>
          {p ? span(p) : "loading…"}
          {p?.masked ? " · masked" : ""}
        </span>
        <button type="button" className="btn small" onClick={win.prev} disabled={!p || p.startChar === 0}>
          ◀ Prev
        </button>
        <button
          type="button"
          className="btn small"
          onClick={win.next}
          disabled={!p || (p.by === "lines" ? p.end >= p.totalLines : p.end >= p.totalChars)}
        >
          Next ▶
        </button>
        <form onSubmit={submit} style={{ display: "flex", gap: 4 }}>
          <label className="sr-only" htmlFor="goto-line">
            Go to line
          </label>
          <input
            id="goto-line"
            className="input"
            style={{ width: 110, height: 22 }}
            placeholder="go to line"
            inputMode="numeric"
            value={goto}
            onChange={(e) => setGoto(e.target.value)}
          />
        </form>
        {p && p.totalLines > WINDOW_HINT && (
          <input
            type="range"
            aria-label="Position in the blob (line)"
            min={0}
            max={Math.max(0, p.totalLines - 1)}
            value={Math.min(topLine, p.totalLines - 1)}
            onChange={(e) => setTopLine(Number(e.target.value))}
            onPointerUp={() => win.jump(topLine)}
            onKeyUp={(e) =>
              (e.key.startsWith("Arrow") || e.key === "Home" || e.key === "End" || e.key.startsWith("Page")) && win.jump(topLine)
            }
            style={{ flex: 1, minWidth: 80 }}
          />
        )}
        <label className="check">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> wrap
        </label>
      </div>
      <Progress on={win.page.loading || win.page.refreshing} label="Loading content" />
      <ErrorNote error={win.page.error} />
      {p && p.cutLines.length > 0 && (
        <div className="callout warn" style={{ margin: "6px 10px" }}>
          {p.cutLines.length === 1 ? `Line ${fmtInt(p.cutLines[0]!.line)} is` : `${fmtInt(p.cutLines.length)} lines are`} longer than 20,000
          chars and shown cut; use Range by chars in Tools for the rest.
        </div>
      )}
      <Suspense
        fallback={
          <div className="muted" style={{ padding: 12, flex: 1 }}>
            Loading the viewer…
          </div>
        }
      >
        {p && (
          <MonacoViewer
            text={p.text}
            kind={kind}
            firstLine={p.firstLine}
            theme={theme}
            wrap={wrap}
            marks={marks}
            inlineMarks={p.by === "lines"}
            reveal={win.reveal}
            ariaLabel={`Content of blob ${id}, ${span(p)}`}
            onEdge={win.onEdge}
            onTopLine={setTopLine}
          />
        )}
      </Suspense>
    </div>
  );
}

/** Blobs longer than this get the position slider. */
const WINDOW_HINT = 2_000;
