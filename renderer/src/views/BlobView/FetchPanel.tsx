/**
 * The fetch modes run by hand: the same answers the model gets from rescuer_fetch, with each
 * place they name clickable to jump the viewer there.
 */
import { useState, type FormEvent } from "react";
import type { FetchModeName, FetchRun, Jump } from "../../../../core/inspector/api/contract";
import { useMutation } from "../../api/useOp";
import { ErrorNote, Progress } from "../../components/Ui/Ui";
import { fmtInt } from "../../format/format";
import { HitList } from "./HitList";

const MODES: { id: FetchModeName; label: string; hint: string }[] = [
  { id: "grep", label: "grep", hint: "RE2 pattern, line by line" },
  { id: "chain", label: "chain", hint: "grep with context lines" },
  { id: "search", label: "search", hint: "BM25 over chunks, plain words" },
  { id: "range", label: "range", hint: "lines (start, count) or chars" },
  { id: "query", label: "query", hint: "JMESPath over JSON" },
  { id: "stat", label: "stat", hint: "size, kind, times, label" },
  { id: "full", label: "full", hint: "whole content up to the cap" },
];

export function FetchPanel({
  id,
  masked,
  onJump,
  onResult,
}: {
  id: string;
  masked: boolean;
  onJump: (j: Jump) => void;
  onResult: (jumps: Jump[]) => void;
}) {
  const [mode, setMode] = useState<FetchModeName>("grep");
  const [pattern, setPattern] = useState("");
  const [ignoreCase, setIgnoreCase] = useState(true);
  const [context, setContext] = useState("2");
  const [query, setQuery] = useState("");
  const [start, setStart] = useState("0");
  const [count, setCount] = useState("100");
  const [byChars, setByChars] = useState(false);
  const [expression, setExpression] = useState("");
  const [result, setResult] = useState<FetchRun | null>(null);
  const run = useMutation("fetch.run");

  const args = (): Record<string, unknown> => {
    switch (mode) {
      case "grep":
        return { pattern, ignore_case: ignoreCase };
      case "chain":
        return { pattern, ignore_case: ignoreCase, context: Number(context) };
      case "search":
        return { query, top_k: 10 };
      case "range":
        return byChars ? { start_char: Number(start), count_chars: Number(count) } : { start: Number(start), count: Number(count) };
      case "query":
        return { expression };
      default:
        return {};
    }
  };
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const r = await run.run({ id, mode, args: args(), masked });
    if (r.ok) {
      setResult(r.value);
      onResult(r.value.jumps);
    }
  };

  return (
    <div style={{ display: "flex", flexDirection: "column", minHeight: 0, flex: 1 }}>
      <form
        onSubmit={submit}
        className="panel-body"
        style={{ display: "flex", flexDirection: "column", gap: 8, borderBottom: "1px solid var(--border)" }}
        aria-label="Run a fetch mode"
      >
        <div className="seg" role="group" aria-label="Mode" style={{ flexWrap: "wrap" }}>
          {MODES.map((m) => (
            <button key={m.id} type="button" aria-pressed={mode === m.id} title={m.hint} onClick={() => setMode(m.id)}>
              {m.label}
            </button>
          ))}
        </div>
        {(mode === "grep" || mode === "chain") && (
          <div style={{ display: "flex", gap: 6, alignItems: "center", flexWrap: "wrap" }}>
            <label className="sr-only" htmlFor="grep-pattern">
              Pattern
            </label>
            <input
              id="grep-pattern"
              data-shortcut="grep"
              className="input mono"
              style={{ flex: 1, minWidth: 160 }}
              placeholder="pattern (RE2), e.g. error|timeout"
              value={pattern}
              onChange={(e) => setPattern(e.target.value)}
            />
            <label className="check">
              <input type="checkbox" checked={ignoreCase} onChange={(e) => setIgnoreCase(e.target.checked)} /> ignore case
            </label>
            {mode === "chain" && (
              <label className="check">
                context{" "}
                <input
                  className="input"
                  style={{ width: 52 }}
                  type="number"
                  min={0}
                  max={50}
                  value={context}
                  onChange={(e) => setContext(e.target.value)}
                />
              </label>
            )}
          </div>
        )}
        {mode === "search" && (
          <input
            aria-label="Search words"
            className="input"
            placeholder="plain words, e.g. connection refused"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
        {mode === "range" && (
          <div style={{ display: "flex", gap: 6, alignItems: "center" }}>
            <label className="check">
              {byChars ? "start char" : "start line"}{" "}
              <input
                className="input"
                style={{ width: 100 }}
                type="number"
                min={0}
                value={start}
                onChange={(e) => setStart(e.target.value)}
              />
            </label>
            <label className="check">
              {byChars ? "chars" : "lines"}{" "}
              <input
                className="input"
                style={{ width: 80 }}
                type="number"
                min={1}
                value={count}
                onChange={(e) => setCount(e.target.value)}
              />
            </label>
            <label className="check">
              <input type="checkbox" checked={byChars} onChange={(e) => setByChars(e.target.checked)} /> by chars
            </label>
          </div>
        )}
        {mode === "query" && (
          <input
            aria-label="JMESPath expression"
            className="input mono"
            placeholder="JMESPath, e.g. items[?status=='failed'].id"
            value={expression}
            onChange={(e) => setExpression(e.target.value)}
          />
        )}
        <div style={{ display: "flex", gap: 8, alignItems: "center" }}>
          <button type="submit" className="btn primary" disabled={run.pending}>
            {run.pending ? "Running…" : `Run ${mode}`}
          </button>
          {result && (
            <span className="muted" data-testid="fetch-summary">
              {result.isError ? "error" : `${fmtInt(result.jumps.length)} place${result.jumps.length === 1 ? "" : "s"}`} ·{" "}
              {fmtInt(result.text.length)} chars answer · {result.tookMs} ms
              {result.truncated ? " · cut at the answer cap" : ""}
            </span>
          )}
        </div>
      </form>
      <Progress on={run.pending} label="Running the fetch" />
      <ErrorNote error={run.error} />
      <div style={{ overflow: "auto", flex: 1, minHeight: 0 }}>
        {!result && (
          <p className="muted panel-body" style={{ margin: 0 }}>
            Each mode answers exactly as <span className="mono">rescuer_fetch</span> answers the model. Lines it names are listed here:
            click one, or press Enter on it, to jump the viewer there.
          </p>
        )}
        {result?.isError && (
          <div className="callout bad" role="alert">
            {result.text}
          </div>
        )}
        {result && !result.isError && <HitList jumps={result.jumps} onJump={onJump} testId="fetch-hits" />}
        {result && !result.isError && (
          <details style={{ padding: "6px 10px" }} open={result.jumps.length === 0}>
            <summary className="muted">The answer as the model gets it</summary>
            <pre tabIndex={0} className="text" data-testid="fetch-answer">
              {result.text}
            </pre>
          </details>
        )}
      </div>
    </div>
  );
}
