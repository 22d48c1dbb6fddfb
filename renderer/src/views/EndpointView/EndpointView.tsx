/** Endpoint: is the MCP/hook endpoint up, where, who is connected, which upstreams, and how to connect an agent. */
import { Fragment, useState } from "react";
import { useCache } from "../../api/ApiProvider";
import { useMutation, useOp } from "../../api/useOp";
import { Badge, CopyButton, ErrorNote, Panel, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtAgo, fmtShortTime, fmtTime, shortId, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";

export function EndpointView() {
  const cache = useCache();
  const st = useOp("endpoint.status", {});
  const snippets = useOp("connect.snippets", {});
  const start = useMutation("endpoint.start", ["endpoint.status"]);
  const stop = useMutation("endpoint.stop", ["endpoint.status"]);
  const s = st.data;
  const getToken = async () => {
    const r = await cache.call("endpoint.token", {});
    return r.ok ? r.value.token : null;
  };
  return (
    <>
      <ViewHead title="Endpoint">
        {s?.canControl && (
          <button
            type="button"
            className="btn"
            disabled={start.pending || stop.pending}
            onClick={() => void (s.running ? stop.run({}) : start.run({}))}
          >
            {s.running ? "Stop endpoint" : "Start endpoint"}
          </button>
        )}
      </ViewHead>
      <Progress on={st.loading || start.pending || stop.pending} label="Loading the endpoint" />
      <div className="view-body">
        <ErrorNote error={st.error ?? start.error ?? stop.error} />
        {s && (
          <div className="grid-2">
            <Panel title="Status" testId="endpoint-status">
              <dl className="kv panel-body">
                <dt>State</dt>
                <dd>
                  <span className={`live-dot${s.running ? " on" : ""}`} aria-hidden="true" />
                  {s.running ? "running" : "stopped"}
                  {s.startedAt ? <span className="muted"> since {fmtTime(s.startedAt)}</span> : null}
                </dd>
                <dt>MCP URL</dt>
                <dd className="mono">
                  {s.mcpUrl ?? "–"} {s.mcpUrl && <CopyButton text={s.mcpUrl} label="Copy URL" />}
                </dd>
                <dt>Hooks</dt>
                <dd className="mono">{s.url ? `${s.url}/hooks/claude-code` : "–"}</dd>
                <dt>Token</dt>
                <dd data-testid="endpoint-token">
                  <TokenFile file={s.tokenFile} inPage={s.canCopyToken} />
                  {s.canCopyToken && <CopyButton label="Copy token" getText={getToken} />}
                </dd>
                <dt>Mode</dt>
                <dd>{s.mode === "web" ? "web inspector served by `spillway serve`" : "desktop app"}</dd>
              </dl>
              {s.note && (
                <div className="callout" style={{ margin: "0 12px 12px" }}>
                  {s.note}
                </div>
              )}
            </Panel>
            <Panel title={`MCP sessions (${s.clients.filter((c) => c.listening).length} connected, ${s.clients.length} open)`}>
              {s.clients.length === 0 ? (
                <p className="panel-body muted">No MCP client is connected right now.</p>
              ) : (
                <table className="table wrap-table" data-testid="clients-table">
                  <thead>
                    <tr>
                      <th>Client</th>
                      <th>Session</th>
                      <th>Opened</th>
                      <th>Last seen</th>
                      <th>State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.clients.map((c) => (
                      <tr key={c.sessionId}>
                        <td>
                          {c.name !== null ? visibleText(c.name) : <span className="muted">unknown</span>} {visibleText(c.version ?? "")}
                        </td>
                        <td className="mono" title={c.sessionId}>
                          <a href={formatRoute({ name: "session", id: c.sessionId })}>{shortId(c.sessionId, 14)}</a>
                        </td>
                        <td title={fmtTime(c.connectedAt)}>{fmtShortTime(c.connectedAt)}</td>
                        <td>{fmtAgo(c.lastSeenAt)}</td>
                        <td>
                          {c.listening ? (
                            "connected"
                          ) : (
                            <span
                              className="muted"
                              title="Its client sent nothing since and holds no stream: gone, or between calls. It closes once idle for server.sessionIdleMinutes."
                            >
                              idle
                            </span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Panel>
            <Panel title={`Upstream servers (${s.upstreams.length})`}>
              {s.upstreams.length === 0 ? (
                <p className="panel-body muted">No upstream MCP servers configured: add them under mcpServers in Settings.</p>
              ) : (
                <table className="table wrap-table" data-testid="upstreams-table">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Transport</th>
                      <th>State</th>
                      <th className="num">Tools</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.upstreams.map((u) => (
                      <Fragment key={u.name}>
                        <tr>
                          <td className="mono">{u.name}</td>
                          <td>{u.transport}</td>
                          <td>
                            <Badge value={u.state} />
                          </td>
                          <td className="num">{u.tools ?? "–"}</td>
                        </tr>
                        {u.error && (
                          <tr className="upstream-error">
                            <td colSpan={4}>
                              <span className="bad-text">Last error:</span> {u.error}
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    ))}
                  </tbody>
                </table>
              )}
            </Panel>
            <Panel title="Connect an agent" wide>
              <Snippets list={snippets.data ?? []} />
            </Panel>
          </div>
        )}
      </div>
    </>
  );
}

/**
 * Where the token is, and a command that reads it there, as the agents' snippets do. In web mode
 * that is all the page gets: a stolen session cookie must not become the permanent token.
 */
function TokenFile({ file, inPage }: { file: string | null; inPage: boolean }) {
  const path = file ?? "~/.spillway/token";
  return (
    <>
      in <span className="mono">{path}</span> <span className="muted">(owner-only{inPage ? "" : "; this page never reads it"})</span>{" "}
      <CopyButton label="Copy export command" text={`export SPILLWAY_TOKEN="$(cat ${shellQuote(path)})"`} />{" "}
    </>
  );
}

/** A path as one shell word (home paths with spaces). */
function shellQuote(s: string): string {
  return /^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

function Snippets({ list }: { list: { agent: string; title: string; target: string; text: string }[] }) {
  const [agent, setAgent] = useState<string | null>(null);
  if (list.length === 0)
    return (
      <p className="panel-body muted">
        Run <code className="mono">spillway connect &lt;agent&gt;</code> to print a config snippet.
      </p>
    );
  const cur = list.find((s) => s.agent === agent) ?? list[0]!;
  return (
    <div data-testid="snippets" style={{ display: "grid", gridTemplateColumns: "170px minmax(0, 1fr)", minHeight: 0 }}>
      <div
        role="tablist"
        aria-label="Agents"
        aria-orientation="vertical"
        style={{ borderRight: "1px solid var(--border)", padding: "6px 0" }}
      >
        {list.map((s) => (
          <button
            key={s.agent}
            type="button"
            role="tab"
            id={`tab-${s.agent}`}
            aria-selected={s.agent === cur.agent}
            className="agent-tab"
            onClick={() => setAgent(s.agent)}
          >
            {s.agent}
          </button>
        ))}
      </div>
      <div className="panel-body" role="tabpanel" aria-labelledby={`tab-${cur.agent}`} style={{ minWidth: 0 }}>
        <p style={{ marginTop: 0, display: "flex", gap: 8, alignItems: "center" }}>
          <b>{cur.title}</b>
          {cur.target && <span className="mono muted">{cur.target}</span>}
          <CopyButton text={cur.text} label="Copy" />
        </p>
        <pre tabIndex={0} className="text" style={{ maxHeight: 420 }}>
          {cur.text}
        </pre>
      </div>
    </div>
  );
}
