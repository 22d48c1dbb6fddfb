/** Import: an agent's own history (Claude Code, Codex, Gemini CLI, OpenCode) into read-only imported sessions. */
import { useEffect, useState } from "react";
import type { HistoryAgentInfo, ImportJob } from "../../../../core/inspector/api/contract";
import { useCache } from "../../api/ApiProvider";
import { useMutation, useOp } from "../../api/useOp";
import { Badge, ErrorNote, Panel, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtBytes, fmtInt, fmtTime, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";

/** How often a running import is asked for its progress. */
const POLL_MS = 400;

function useImportJob(): ImportJob | null | undefined {
  const status = useOp("history.status", {});
  const cache = useCache();
  const running = status.data?.state === "running";
  useEffect(() => {
    if (!running) return;
    // While it runs, progress is polled; its end also arrives as pushed events (sessions imported).
    const t = setInterval(() => cache.invalidate(["history.status"]), POLL_MS);
    return () => {
      clearInterval(t);
      cache.invalidate(["history.agents", "history.summary", "sessions.list"]);
    };
  }, [running, cache]);
  return status.data;
}

export function ImportView() {
  const agents = useOp("history.agents", {});
  const job = useImportJob();
  const start = useMutation("history.import", ["history.status"]);
  const cancel = useMutation("history.cancel", ["history.status"]);
  const sessions = useOp("sessions.list", { imported: true, limit: 500, sort: { by: "createdAt", dir: "desc" } });
  const running = job?.state === "running";
  return (
    <>
      <ViewHead title="Import agent history">
        <span className="muted">read-only: nothing in the agents' own files is changed</span>
      </ViewHead>
      <Progress on={agents.loading || running} label="Importing" />
      <div className="view-body">
        <ErrorNote error={agents.error ?? start.error ?? cancel.error} />
        <div className="grid-2">
          {(agents.data ?? []).map((a) => (
            <AgentPanel
              key={a.agent}
              a={a}
              busy={running}
              onImport={(path) => void start.run({ agent: a.agent, ...(path && path !== a.defaultPath ? { path } : {}) })}
            />
          ))}
        </div>
        {job && <JobPanel job={job} onCancel={() => void cancel.run({})} />}
        <Panel title={`Imported sessions (${fmtInt(sessions.data?.total ?? 0)})`} testId="imported-sessions" wide>
          {sessions.data && sessions.data.total === 0 ? (
            <p className="panel-body muted">Nothing imported yet. Pick an agent above; its sessions appear here and in Replay.</p>
          ) : (
            <table className="table" style={{ tableLayout: "fixed" }} data-testid="imported-table">
              <thead>
                <tr>
                  <th>Session</th>
                  <th style={{ width: 110 }}>Agent</th>
                  <th style={{ width: "22%" }}>Project</th>
                  <th style={{ width: 130 }}>Model</th>
                  <th style={{ width: 150 }}>Started</th>
                  <th className="num" style={{ width: 60 }}>
                    Calls
                  </th>
                  <th style={{ width: 150 }} />
                </tr>
              </thead>
              <tbody>
                {(sessions.data?.rows ?? []).map((s) => (
                  <tr key={s.id} data-id={s.id}>
                    <td title={s.id}>
                      <a href={formatRoute({ name: "session", id: s.id })}>{visibleText(s.imported?.title ?? s.id)}</a>
                    </td>
                    <td>
                      <Badge value={s.imported?.agent ?? "?"} />
                    </td>
                    <td className="mono" title={s.imported?.project ?? ""}>
                      {s.imported?.project ?? "–"}
                    </td>
                    <td className="mono">{s.imported?.model ?? "–"}</td>
                    <td className="mono">{fmtTime(s.createdAt)}</td>
                    <td className="num">{fmtInt(s.calls)}</td>
                    <td>
                      <a href={formatRoute({ name: "replay", session: s.id })}>Replay this session</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      </div>
    </>
  );
}

function AgentPanel({ a, busy, onImport }: { a: HistoryAgentInfo; busy: boolean; onImport: (path: string) => void }) {
  const [path, setPath] = useState(a.defaultPath);
  const id = `path-${a.agent}`;
  return (
    <Panel title={a.name} testId={`agent-${a.agent}`} actions={<span className="muted num">{fmtInt(a.importedSessions)} imported</span>}>
      <div className="panel-body">
        <label className="field" htmlFor={id}>
          <span className="muted">History folder or file {a.exists ? "" : "(not found at the default place)"}</span>
          <input id={id} className="input mono" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        </label>
        <div style={{ marginTop: 8 }}>
          <button type="button" className="btn" disabled={busy || !path.trim()} onClick={() => onImport(path.trim())}>
            Import {a.name}
          </button>
        </div>
      </div>
    </Panel>
  );
}

function JobPanel({ job, onCancel }: { job: ImportJob; onCancel: () => void }) {
  const share = job.bytes ? job.bytesDone / job.bytes : job.state === "running" ? 0 : 1;
  const label = { running: "importing", done: "done", cancelled: "cancelled", failed: "failed" }[job.state];
  return (
    <Panel
      title={`Import of ${job.agent}: ${label}`}
      testId="import-job"
      wide
      actions={
        job.state === "running" ? (
          <button type="button" className="btn small" onClick={onCancel}>
            Cancel
          </button>
        ) : undefined
      }
    >
      <div className="panel-body">
        <div
          className="meter"
          role="meter"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
        >
          <div style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
        <p data-testid="import-figures">
          {fmtInt(job.filesDone)} of {fmtInt(job.files)} files ({fmtBytes(job.bytesDone)} of {fmtBytes(job.bytes)}) · {fmtInt(job.sessions)}{" "}
          sessions · {fmtInt(job.callsAdded)} calls added · {fmtInt(job.callsKept)} already imported · {fmtInt(job.issueCount)} skipped
        </p>
        <p className="muted mono">{job.current ?? job.path}</p>
        {job.error && (
          <div className="callout bad" role="alert">
            {job.error}
          </div>
        )}
        {job.issues.length > 0 && (
          <ul className="list" data-testid="import-issues">
            {job.issues.map((i, k) => (
              <li key={k} className="mono">
                {i.file}
                {i.line ? `:${i.line}` : ""}: {i.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
