/**
 * Replay lab: what the model would have received under one or two policies, for one imported
 * session, an agent's or all, beside what it got: prompt tokens per request (the whole history
 * re-sent each time), per call the handle, stub or pass-through, and where the savings come from.
 */
import { useState } from "react";
import type { ReplayReport, Req } from "../../../../core/inspector/api/contract";
import { useCache } from "../../api/ApiProvider";
import { useOp } from "../../api/useOp";
import { Card, ErrorNote, Panel, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtInt, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";
import { parsePolicyText, policyText, PRESETS } from "./policies";
import { CallsTable, RequestChart } from "./ReplayParts";

type ReplayReq = Req<"replay.run">;

export function ReplayView({ session, agent }: { session?: string | undefined; agent?: string | undefined }) {
  const cache = useCache();
  const imported = useOp("sessions.list", { imported: true, limit: 500, sort: { by: "createdAt", dir: "desc" } });
  const [scope, setScope] = useState(session ? `session:${session}` : agent ? `agent:${agent}` : "all");
  const [a, setA] = useState(policyText(PRESETS[0]!.policy));
  const [b, setB] = useState(policyText(PRESETS[3]!.policy));
  const [compare, setCompare] = useState(true);
  const [req, setReq] = useState<ReplayReq | null>(null);
  const [bad, setBad] = useState<string | null>(null);
  const run = useOp("replay.run", req ?? {}, { enabled: req !== null });
  const report = req ? run.data : undefined;
  const agents = [...new Set((imported.data?.rows ?? []).map((s) => s.imported?.agent).filter((x): x is string => !!x))];

  const build = (): ReplayReq | null => {
    const pa = parsePolicyText(a);
    const pb = compare ? parsePolicyText(b) : null;
    const err = "error" in pa ? `Policy A: ${pa.error}` : pb && "error" in pb ? `Policy B: ${pb.error}` : null;
    setBad(err);
    if (err || "error" in pa || (pb && "error" in pb)) return null;
    const [kind, ...rest] = scope.split(":");
    const value = rest.join(":");
    return {
      scope: kind === "session" ? { sessionId: value } : kind === "agent" ? { agent: value as "codex" } : {},
      policies: pb ? [pa.policy, pb.policy] : [pa.policy],
      includeText: kind === "session",
    };
  };
  const exportAs = async (format: "md" | "csv" | "json") => {
    const r = build();
    if (!r) return;
    const res = await cache.call("replay.export", { scope: r.scope, policies: r.policies, format });
    if (!res.ok) return setBad(res.error.message);
    const url = URL.createObjectURL(new Blob([res.value.text], { type: res.value.mime }));
    const link = document.createElement("a");
    link.href = url;
    link.download = res.value.filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <>
      <ViewHead title="Replay lab">
        <label className="sr-only" htmlFor="replay-scope">
          Replay what
        </label>
        <select id="replay-scope" className="input" value={scope} onChange={(e) => setScope(e.target.value)} data-testid="replay-scope">
          <option value="all">All imported history</option>
          {agents.map((x) => (
            <option key={x} value={`agent:${x}`}>
              All of {x}
            </option>
          ))}
          {(imported.data?.rows ?? []).map((s) => (
            <option key={s.id} value={`session:${s.id}`}>
              {s.imported?.agent}: {visibleText(s.imported?.title ?? s.id)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn primary"
          onClick={() => {
            const r = build();
            if (r) setReq(r);
          }}
          data-testid="replay-run"
        >
          Replay
        </button>
        <div className="seg" role="group" aria-label="Export">
          {(["md", "csv", "json"] as const).map((f) => (
            <button key={f} type="button" onClick={() => void exportAs(f)} disabled={!report}>
              {f === "md" ? "Markdown" : f.toUpperCase()}
            </button>
          ))}
        </div>
      </ViewHead>
      <Progress on={run.loading && req !== null} label="Replaying" />
      <div className="view-body">
        {bad && (
          <div className="callout bad" role="alert">
            {bad}
          </div>
        )}
        <ErrorNote error={run.error} />
        {imported.data && imported.data.total === 0 && (
          <div className="callout">
            Nothing imported yet: <a href={formatRoute({ name: "import" })}>import an agent's history</a> first.
          </div>
        )}
        <div className="grid-2">
          <PolicyEditor title="Policy A" value={a} onChange={setA} testId="policy-a" />
          <PolicyEditor title="Policy B" value={b} onChange={setB} testId="policy-b" enabled={compare} onToggle={setCompare} />
        </div>
        {report && <Results report={report} />}
      </div>
    </>
  );
}

function PolicyEditor(p: {
  title: string;
  value: string;
  onChange: (v: string) => void;
  testId: string;
  enabled?: boolean;
  onToggle?: (on: boolean) => void;
}) {
  const on = p.enabled ?? true;
  return (
    <Panel
      title={
        p.onToggle ? (
          <label className="check">
            <input type="checkbox" checked={on} onChange={(e) => p.onToggle!(e.target.checked)} /> {p.title} (side by side)
          </label>
        ) : (
          p.title
        )
      }
      testId={p.testId}
      actions={
        <select
          className="input"
          aria-label={`${p.title} preset`}
          value=""
          onChange={(e) => {
            const x = PRESETS.find((q) => q.id === e.target.value);
            if (x) p.onChange(policyText(x.policy));
          }}
          disabled={!on}
        >
          <option value="">preset…</option>
          {PRESETS.map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
            </option>
          ))}
        </select>
      }
    >
      <textarea
        className="input mono"
        aria-label={`${p.title} (JSON)`}
        spellCheck={false}
        rows={7}
        style={{ width: "100%", resize: "vertical", border: 0 }}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        disabled={!on}
      />
    </Panel>
  );
}

function Results({ report }: { report: ReplayReport }) {
  const t = report.totals;
  const one = report.sessions.length === 1 ? report.sessions[0]! : null;
  return (
    <>
      <div className="cards" data-testid="replay-totals">
        <Card
          testId="replay-as-happened"
          label="As it happened (prompt tokens)"
          value={fmtInt(t.asHappened)}
          sub={`${fmtInt(t.sessions)} sessions · ${fmtInt(t.requests)} requests · ${fmtInt(t.calls)} calls`}
        />
        {t.policies.map((p, i) => (
          <Card
            key={i}
            testId={`replay-policy-${i}`}
            label={`${p.name} (prompt tokens)`}
            value={fmtInt(p.promptTokens)}
            sub={`saves ${fmtInt(p.saved)} (${(p.savedShare * 100).toFixed(1)} %) · ${fmtInt(p.handles)} handles · ${fmtInt(p.stubs)} stubs · ${fmtInt(p.nearStubs)} near-dup`}
          />
        ))}
      </div>
      <p className="muted">
        Counted with {report.tokenizer}: every request re-sends the whole conversation since the last compaction, as APIs bill it (before
        cache discounts).
        {t.contentGone ? ` ${fmtInt(t.contentGone)} calls no longer have their content in the store; they count as they happened.` : ""}
      </p>
      {one && (
        <Panel title="Prompt tokens per request" wide testId="replay-requests">
          <RequestChart session={one} names={report.policies.map((p) => p.name)} />
        </Panel>
      )}
      <Panel title="Where the savings come from" wide testId="replay-tools">
        <table className="table" style={{ tableLayout: "fixed" }}>
          <thead>
            <tr>
              <th>Tool</th>
              <th className="num" style={{ width: 70 }}>
                Calls
              </th>
              <th className="num" style={{ width: 160 }}>
                Billed as it happened
              </th>
              {report.policies.map((p, i) => (
                <th key={i} className="num" style={{ width: 170 }}>
                  Saved by {p.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.tools.map((x) => (
              <tr key={x.tool}>
                <td className="mono">{visibleText(x.tool)}</td>
                <td className="num">{fmtInt(x.calls)}</td>
                <td className="num">{fmtInt(x.asHappened)}</td>
                {x.policies.map((p, i) => (
                  <td key={i} className={`num${p.saved < 0 ? " bad" : ""}`}>
                    {fmtInt(p.saved)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      {one && (
        <Panel title="Calls: what the model got, and would have got" wide testId="replay-calls">
          <CallsTable session={one} names={report.policies.map((p) => p.name)} />
        </Panel>
      )}
      {!one && (
        <Panel title="Sessions" wide>
          <table className="table" style={{ tableLayout: "fixed" }}>
            <thead>
              <tr>
                <th>Session</th>
                <th style={{ width: 110 }}>Agent</th>
                <th className="num" style={{ width: 90 }}>
                  Requests
                </th>
                <th className="num" style={{ width: 140 }}>
                  As it happened
                </th>
                {report.policies.map((p, i) => (
                  <th key={i} className="num" style={{ width: 150 }}>
                    {p.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    <a href={formatRoute({ name: "replay", session: s.id })}>{visibleText(s.title ?? s.id)}</a>
                  </td>
                  <td>{s.agent}</td>
                  <td className="num">{fmtInt(s.requests.length)}</td>
                  <td className="num">{fmtInt(s.promptTokens.asHappened)}</td>
                  {s.promptTokens.policies.map((v, i) => (
                    <td key={i} className="num">
                      {fmtInt(v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      )}
    </>
  );
}
