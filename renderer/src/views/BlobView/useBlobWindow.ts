/**
 * Which window of a blob the viewer shows. Only a window ever reaches the browser: lines for
 * ordinary text, char spans for blobs made of very long lines (minified JSON). Jumps outside
 * the window load the window around the target; scrolling past an edge slides the window.
 */
import { useCallback, useRef, useState } from "react";
import type { BlobMeta } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";

/** Lines per window, chars per window in char mode, and context kept above a jump target. */
export const WINDOW_LINES = 2_000;
export const WINDOW_CHARS = 200_000;
const ABOVE = 100;

export interface Reveal {
  line: number;
  col?: number;
  /** With `col`: the end of the match, selected so it stands out. */
  endCol?: number;
  seq: number;
  top?: boolean;
}

interface Win {
  by: "lines" | "chars";
  start: number;
  anchorLine?: number;
}

/** The content request for a window; the same object for the same window, so requests share a cache entry. */
export function windowRequest(id: string, masked: boolean, win: Win) {
  return {
    id,
    masked,
    by: win.by,
    start: win.start,
    count: win.by === "lines" ? WINDOW_LINES : WINDOW_CHARS,
    ...(win.anchorLine !== undefined ? { anchorLine: win.anchorLine } : {}),
  };
}

/** The first window of a blob opened at `line`, when it is read by lines (most blobs). */
export function firstLinesWindow(line?: number): Win {
  return { by: "lines", start: Math.max(0, (line ?? 0) - ABOVE) };
}

/** Blobs whose average line is this long are read by chars, wrapped. */
export function prefersChars(meta: Pick<BlobMeta, "chars" | "lines">): boolean {
  return meta.lines > 0 && meta.chars / meta.lines > 2_000;
}

export function useBlobWindow(meta: BlobMeta, masked: boolean, initialLine?: number) {
  const byChars = prefersChars(meta);
  const [win, setWin] = useState<Win>(() =>
    byChars
      ? initialLine !== undefined
        ? { by: "chars", start: 0, anchorLine: initialLine }
        : { by: "chars", start: 0 }
      : firstLinesWindow(initialLine),
  );
  const seq = useRef(0);
  const [reveal, setReveal] = useState<Reveal | null>(initialLine !== undefined ? { line: initialLine, seq: ++seq.current } : null);
  const page = useOp("blobs.content", windowRequest(meta.id, masked, win));
  const p = page.data;
  const current = useRef(p);
  current.current = p;

  const jump = useCallback(
    (line: number, col?: number, endCol?: number) => {
      const cur = current.current;
      const inside = cur && cur.by === "lines" && line >= cur.start && line < cur.end;
      if (!inside) {
        if (win.by === "lines") setWin({ by: "lines", start: Math.max(0, line - ABOVE) });
        else setWin({ by: "chars", anchorLine: line, start: Math.max(0, (col ?? 0) - 2_000) });
      }
      // In a char window anchored on the line, the window starts 2,000 chars before the match.
      const shift = win.by === "chars" && col !== undefined ? col - Math.min(col, 2_000) : 0;
      const at = col !== undefined ? col - shift : undefined;
      setReveal({ line, col: at, endCol: endCol !== undefined ? endCol - shift : undefined, seq: ++seq.current });
    },
    [win.by],
  );

  /** Slides the window when the reader scrolls past its end or start. */
  const onEdge = useCallback(
    (edge: "top" | "bottom", topLine: number) => {
      const cur = current.current;
      // While another window is on its way (a jump, a slide), the old one's edges mean nothing.
      const loaded = cur && cur.by === win.by && (win.by === "chars" || cur.start === win.start);
      if (!cur || !loaded || page.refreshing) return;
      if (cur.by === "lines") {
        if (edge === "bottom" && cur.end < cur.totalLines) setWin({ by: "lines", start: Math.max(0, topLine - ABOVE) });
        else if (edge === "top" && cur.start > 0) setWin({ by: "lines", start: Math.max(0, topLine - WINDOW_LINES + ABOVE) });
        else return;
        setReveal({ line: topLine, seq: ++seq.current, top: true });
      } else if (edge === "bottom" && cur.end < cur.totalChars) {
        setWin({ by: "chars", start: cur.end - 2_000 });
      } else if (edge === "top" && cur.startChar > 0) {
        setWin({ by: "chars", start: Math.max(0, cur.startChar - WINDOW_CHARS + 2_000) });
      }
    },
    [page.refreshing, win],
  );

  const next = () => p && (p.by === "lines" ? setWin({ by: "lines", start: p.end }) : setWin({ by: "chars", start: p.end }));
  const prev = () =>
    p &&
    (p.by === "lines"
      ? setWin({ by: "lines", start: Math.max(0, p.start - WINDOW_LINES) })
      : setWin({ by: "chars", start: Math.max(0, p.startChar - WINDOW_CHARS) }));
  return { page, win, reveal, jump, onEdge, next, prev, byChars };
}
