/**
 * A text as a tool returned it or the model was given it. Lines are never wrapped inside a word
 * (long lines scroll; "Wrap lines" wraps at spaces), and JSON can be pretty-printed when it is
 * whole. Always plain text: content is untrusted and never rendered as HTML.
 */
import { useMemo, useState, type ReactNode } from "react";
import { fmtInt, visibleText } from "../../format/format";

export interface TextPaneProps {
  title: ReactNode;
  text: string;
  totalChars: number;
  truncated: boolean;
  testId?: string;
  /** Shown after the size in the title line (a link to the whole blob). */
  extra?: ReactNode;
  maxHeight?: number;
}

/** The text pretty-printed, when it is one whole JSON object or array; else null. */
export function prettyJson(text: string): string | null {
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return null;
  try {
    const pretty = JSON.stringify(JSON.parse(t), null, 2);
    return pretty === t ? null : pretty;
  } catch {
    return null;
  }
}

export function TextPane(p: TextPaneProps) {
  // A single line (a stub, a sentence) reads best wrapped; a text with lines keeps them as written.
  const [wrap, setWrap] = useState(() => !p.text.includes("\n") && p.text.length <= 2_000);
  const [pretty, setPretty] = useState(false);
  const json = useMemo(() => (p.truncated ? null : prettyJson(p.text)), [p.text, p.truncated]);
  return (
    <div className="textpane">
      <div className="textpane-head">
        <span className="textpane-title">{p.title}</span>
        <span className="num">{fmtInt(p.totalChars)} chars</span>
        {p.extra}
        <span className="spacer" />
        {json && (
          <button type="button" className="btn small" aria-pressed={pretty} onClick={() => setPretty((v) => !v)}>
            Pretty JSON
          </button>
        )}
        <button type="button" className="btn small" aria-pressed={wrap} onClick={() => setWrap((v) => !v)}>
          Wrap lines
        </button>
      </div>
      <pre tabIndex={0} className={`text ${wrap ? "wrap" : "nowrap"}`} data-testid={p.testId} style={{ maxHeight: p.maxHeight ?? 320 }}>
        {visibleText(pretty && json ? json : p.text)}
        {p.truncated ? `\n… ${fmtInt(p.totalChars - p.text.length)} more chars` : ""}
      </pre>
    </div>
  );
}
