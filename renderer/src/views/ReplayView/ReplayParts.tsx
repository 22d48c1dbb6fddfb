/** The replay lab's per-request chart and per-call table (presentational). */
import { Fragment, useState } from "react";
import type { ReplaySessionReport } from "../../../../core/inspector/api/contract";
import { fmtChars, fmtInt, visibleText } from "../../format/format";

const COLORS = ["var(--muted)", "var(--accent)", "var(--ok)"];

/** Prompt tokens of each request as lines: as it happened, then each policy. */
export function RequestChart({ session, names }: { session: ReplaySessionReport; names: string[] }) {
  const rows = session.requests;
  const series = [rows.map((r) => r.asHappened), ...names.map((_, i) => rows.map((r) => r.policies[i]!))];
  const max = Math.max(1, ...series.flat());
  const w = 720;
  const h = 160;
  const x = (i: number) => (rows.length <= 1 ? w / 2 : 40 + (i * (w - 60)) / (rows.length - 1));
  const y = (v: number) => h - 20 - (v / max) * (h - 40);
  return (
    <div className="panel-body">
      <svg viewBox={`0 0 ${w} ${h}`} width="100%" height={h} role="img" aria-label="Prompt tokens per request">
        <line x1={40} x2={w - 20} y1={h - 20} y2={h - 20} stroke="currentColor" opacity={0.3} />
        <text x={0} y={y(max) + 4} fontSize={10} fill="currentColor">
          {fmtInt(max)}
        </text>
        {series.map((s, k) => (
          <polyline
            key={k}
            fill="none"
            stroke={COLORS[k % COLORS.length]}
            strokeWidth={2}
            points={s.map((v, i) => `${x(i)},${y(v)}`).join(" ")}
          />
        ))}
        {rows.map((r, i) => (
          <text key={r.seq} x={x(i)} y={h - 6} fontSize={9} textAnchor="middle" fill="currentColor" opacity={0.6}>
            {r.seq + 1}
          </text>
        ))}
      </svg>
      <div className="toolbar">
        {["as it happened", ...names].map((n, k) => (
          <span key={n} className="muted">
            <span
              aria-hidden="true"
              style={{
                display: "inline-block",
                width: 12,
                height: 3,
                background: COLORS[k % COLORS.length],
                marginRight: 4,
                verticalAlign: "middle",
              }}
            />
            {n}
          </span>
        ))}
      </div>
      <table className="table" style={{ tableLayout: "fixed" }} data-testid="replay-request-table">
        <thead>
          <tr>
            <th style={{ width: 80 }}>Request</th>
            <th className="num">As it happened</th>
            {names.map((n) => (
              <th key={n} className="num">
                {n}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seq}>
              <td className="num">{r.seq + 1}</td>
              <td className="num">{fmtInt(r.asHappened)}</td>
              {r.policies.map((v, i) => (
                <td key={i} className="num">
                  {fmtInt(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const ACTION: Record<string, string> = { passthrough: "as it came", handle: "handle", stub: "stub", near_stub: "near-dup stub" };

export function CallsTable({ session, names }: { session: ReplaySessionReport; names: string[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <table className="table" style={{ tableLayout: "fixed" }}>
      <thead>
        <tr>
          <th>Tool</th>
          <th className="num" style={{ width: 110 }}>
            Result
          </th>
          <th style={{ width: 110 }}>Agent cut</th>
          <th className="num" style={{ width: 110 }}>
            Tokens then
          </th>
          {names.map((n) => (
            <th key={n} style={{ width: 190 }}>
              {n}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {session.calls.map((c) => (
          <Fragment key={c.id}>
            <tr data-call={c.id}>
              <td className="mono">
                <button
                  type="button"
                  className="btn small"
                  aria-expanded={open === c.id}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                  title="What the model would have been given"
                >
                  {open === c.id ? "▾" : "▸"} {visibleText(c.tool)}
                </button>
              </td>
              <td className="num">{fmtChars(c.resultChars)}</td>
              <td>{c.hostCut ?? <span className="muted">–</span>}</td>
              <td className="num">{fmtInt(c.asHappenedTokens)}</td>
              {c.policies.map((p, i) => (
                <td key={i}>
                  <span className={`badge b-${p.action}`}>{ACTION[p.action]}</span> <span className="num">{fmtInt(p.tokens)}</span>
                </td>
              ))}
            </tr>
            {open === c.id && (
              <tr>
                <td colSpan={4 + names.length}>
                  <div className="grid-2">
                    {c.policies.map((p, i) => (
                      <div key={i}>
                        <div className="muted">
                          {names[i]}: {ACTION[p.action]}
                          {p.reason ? ` (${p.reason.replace("_", " ")})` : ""}
                        </div>
                        <pre
                          className="mono"
                          tabIndex={0}
                          aria-label={`What ${names[i]} would have given the model`}
                          style={{ whiteSpace: "pre-wrap", maxHeight: 320, overflow: "auto" }}
                        >
                          {p.text != null ? visibleText(p.text) : "the result as the agent gave it"}
                        </pre>
                      </div>
                    ))}
                  </div>
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
