/** Small presentational pieces shared by every view. */
import { useState, type CSSProperties, type ReactNode } from "react";
import type { InspectorError } from "../../../../core/inspector/api/contract";
import { visibleText } from "../../format/format";

export function Badge({ value, title }: { value: string; title?: string }) {
  return (
    <span className={`badge b-${value}`} title={title}>
      {value}
    </span>
  );
}

export function Card({ label, value, sub, testId }: { label: string; value: ReactNode; sub?: ReactNode; testId?: string }) {
  return (
    <div className="card" data-testid={testId}>
      <div className="k">{label}</div>
      <div className="v">{value}</div>
      {sub !== undefined && <div className="s">{sub}</div>}
    </div>
  );
}

export function Panel({
  title,
  actions,
  children,
  testId,
  wide,
  span,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
  span?: number;
}) {
  const style = wide ? { gridColumn: "1 / -1" } : span ? { gridColumn: `span ${span}` } : undefined;
  return (
    <section className="panel" data-testid={testId} style={style}>
      <h2>
        {title}
        <span className="spacer" />
        {actions}
      </h2>
      {children}
    </section>
  );
}

/** A thin bar under the header that moves while something loads; keeps its height when idle. */
export function Progress({ on, label }: { on: boolean; label?: string }) {
  return (
    <div
      className={`progress${on ? " on" : ""}`}
      role="progressbar"
      aria-label={label ?? "Loading"}
      aria-busy={on}
      aria-valuetext={on ? "working" : "idle"}
    />
  );
}

export function ErrorNote({ error }: { error: InspectorError | undefined }) {
  if (!error) return null;
  return (
    <div className="callout bad" role="alert">
      {error.message}
    </div>
  );
}

export function ViewHead({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header className="view-head">
      <h1>{title}</h1>
      <span className="spacer" />
      {children}
    </header>
  );
}

/** Copies text with the Clipboard API, saying so for a moment. */
export function CopyButton({ text, label, getText }: { text?: string; label: string; getText?: () => Promise<string | null> }) {
  const [done, setDone] = useState<"copied" | "failed" | null>(null);
  const copy = async () => {
    try {
      const value = getText ? await getText() : text;
      if (value == null) throw new Error("nothing to copy");
      await navigator.clipboard.writeText(value);
      setDone("copied");
    } catch {
      setDone("failed");
    }
    setTimeout(() => setDone(null), 1500);
  };
  return (
    <button type="button" className="btn small" onClick={() => void copy()} aria-live="polite">
      {done === "copied" ? "Copied" : done === "failed" ? "Copy failed" : label}
    </button>
  );
}

/** A tab list; the tab ids are `${idPrefix}-${id}` (unique per page when several lists are shown). */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  idPrefix = "tab",
}: {
  tabs: { id: T; label: string }[];
  value: T;
  onChange: (t: T) => void;
  label: string;
  idPrefix?: string;
}) {
  return (
    <div className="tabs" role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === value}
          onClick={() => onChange(t.id)}
          id={`${idPrefix}-${t.id}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** One choice of an `AnySelect`: a value shown as itself, or a value with its own words. */
export type SelectOption = string | { value: string; text: string };

/**
 * A labelled filter select whose first choice is "any" (the empty value): the filter bars of
 * Blobs and Search are rows of these.
 */
export function AnySelect({
  label,
  value,
  options,
  onChange,
  style,
  title,
}: {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  style?: CSSProperties;
  title?: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select className="input" value={value} onChange={(e) => onChange(e.target.value)} style={style} title={title}>
        <option value="">any</option>
        {options.map((o) => {
          const { value: v, text } = typeof o === "string" ? { value: o, text: o } : o;
          return (
            <option key={v} value={v}>
              {visibleText(text)}
            </option>
          );
        })}
      </select>
    </label>
  );
}
