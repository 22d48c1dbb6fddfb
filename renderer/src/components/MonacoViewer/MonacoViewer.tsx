/**
 * The one Monaco wrapper: a read-only editor created on mount and disposed on unmount. It shows
 * one window of a blob; line numbers are the blob's own (0-based, like every fetch answer).
 * Text is set as a model value, never as HTML.
 */
import { useEffect, useRef } from "react";
import { languageOf, monaco } from "./monacoSetup";

export interface ViewerMark {
  /** 0-based line of the blob. */
  line: number;
  startCol?: number;
  endCol?: number;
}

export interface MonacoViewerProps {
  text: string;
  kind: string;
  /** The blob line shown as the first model line. */
  firstLine: number;
  theme: "light" | "dark";
  wrap: boolean;
  marks: ViewerMark[];
  /** Columns of marks are line columns; a char window starting mid-line cannot place them. */
  inlineMarks?: boolean;
  /** Scrolls to and selects this line; `seq` changes to repeat a jump to the same line. */
  reveal: { line: number; col?: number; endCol?: number; seq: number; top?: boolean } | null;
  ariaLabel: string;
  /** Called when the view reaches the top or bottom of the window (to load the next one). */
  onEdge?: (edge: "top" | "bottom", topLine: number) => void;
  onTopLine?: (line: number) => void;
}

export default function MonacoViewer(p: MonacoViewerProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const props = useRef(p);
  props.current = p;

  useEffect(() => {
    const ed = monaco.editor.create(host.current!, {
      value: "",
      language: "plaintext",
      readOnly: true,
      domReadOnly: false,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 12,
      lineNumbersMinChars: 7,
      renderValidationDecorations: "off",
      largeFileOptimizations: true,
      stopRenderingLineAfter: 20_000,
      maxTokenizationLineLength: 20_000,
      links: false,
      contextmenu: false,
      ariaLabel: p.ariaLabel,
      lineNumbers: (n) => String(props.current.firstLine + n - 1),
    });
    editor.current = ed;
    decorations.current = ed.createDecorationsCollection();
    const sub = ed.onDidScrollChange((e) => {
      if (!e.scrollTopChanged) return;
      const ranges = ed.getVisibleRanges();
      const top = ranges[0]?.startLineNumber ?? 1;
      const bottom = ranges[ranges.length - 1]?.endLineNumber ?? 1;
      const cur = props.current;
      cur.onTopLine?.(cur.firstLine + top - 1);
      const lines = ed.getModel()?.getLineCount() ?? 1;
      if (bottom >= lines && e.scrollTop > 0) cur.onEdge?.("bottom", cur.firstLine + top - 1);
      else if (top <= 1 && e.scrollTop === 0) cur.onEdge?.("top", cur.firstLine + top - 1);
    });
    return () => {
      sub.dispose();
      ed.getModel()?.dispose();
      ed.dispose();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    monaco.editor.setTheme(p.theme === "dark" ? "vs-dark" : "vs");
  }, [p.theme]);

  useEffect(() => {
    editor.current?.updateOptions({ wordWrap: p.wrap ? "on" : "off", ariaLabel: p.ariaLabel });
  }, [p.wrap, p.ariaLabel]);

  useEffect(() => {
    const ed = editor.current!;
    const old = ed.getModel();
    ed.setModel(monaco.editor.createModel(p.text, languageOf(p.kind)));
    old?.dispose();
    // Line numbers come from a function of firstLine: make the editor redraw them.
    ed.updateOptions({ lineNumbers: (n) => String(props.current.firstLine + n - 1) });
  }, [p.text, p.kind, p.firstLine]);

  useEffect(() => {
    const ed = editor.current!;
    const model = ed.getModel();
    if (!model) return;
    const lines = model.getLineCount();
    const decos: monaco.editor.IModelDeltaDecoration[] = [];
    for (const m of p.marks) {
      const ln = m.line - p.firstLine + 1;
      if (ln < 1 || ln > lines) continue;
      decos.push({
        range: new monaco.Range(ln, 1, ln, 1),
        options: { isWholeLine: true, className: "hit-line", linesDecorationsClassName: "hit-gutter" },
      });
      if (p.inlineMarks !== false && m.startCol !== undefined && m.endCol !== undefined && m.endCol > m.startCol) {
        decos.push({ range: new monaco.Range(ln, m.startCol + 1, ln, m.endCol + 1), options: { inlineClassName: "hit-inline" } });
      }
    }
    decorations.current?.set(decos);
  }, [p.marks, p.text, p.firstLine, p.inlineMarks]);

  useEffect(() => {
    const ed = editor.current;
    const r = p.reveal;
    if (!ed || !r) return;
    const model = ed.getModel();
    if (!model) return;
    const ln = r.line - p.firstLine + 1;
    // A target outside this window waits for its window's text (this effect runs again then).
    if (ln < 1 || ln > model.getLineCount()) return;
    const col = (r.col ?? 0) + 1;
    if (r.top) ed.setScrollTop(ed.getTopForLineNumber(ln));
    else {
      if (r.endCol !== undefined && r.endCol > (r.col ?? 0)) ed.setSelection(new monaco.Range(ln, col, ln, r.endCol + 1));
      else ed.setPosition({ lineNumber: ln, column: col });
      ed.revealLineInCenter(ln);
    }
  }, [p.reveal?.seq, p.text]);

  return (
    <div
      ref={host}
      className="monaco-host"
      data-first-line={p.firstLine}
      data-revealed-line={p.reveal?.line ?? ""}
      style={{ flex: 1, minHeight: 0 }}
    />
  );
}
