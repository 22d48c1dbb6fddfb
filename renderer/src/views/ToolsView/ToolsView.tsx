/**
 * Tools: each upstream's tool catalog with its schemas, and any tool run by hand through the
 * proxy as the inspector's own session (its result rescued and recorded like an agent's; the
 * recorded call has the raw result and the JSON-RPC).
 */
import { useMemo, useState, type FormEvent } from "react";
import type { CatalogTool, ToolRun } from "../../../../core/inspector/api/contract";
import { useMutation, useOp } from "../../api/useOp";
import { TextPane } from "../../components/TextPane/TextPane";
import { Badge, ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtInt, fmtMs, visibleText } from "../../format/format";
import { formatRoute } from "../../router/route";
import { navigate } from "../../router/useRoute";
import { argsOf, fieldsOf, type Field } from "./argsForm";

const REFRESH = ["sessions.list", "sessions.timeline", "calls.find", "overview.get", "blobs.list"] as const;

function FieldInput({ f, value, onChange }: { f: Field; value: string; onChange: (v: string) => void }) {
  const id = `arg-${f.name}`;
  const label = (
    <span>
      {f.name}
      {f.required ? " *" : ""}{" "}
      <span className="muted" style={{ textTransform: "none", letterSpacing: 0 }}>
        {f.kind}
      </span>
    </span>
  );
  const input =
    f.kind === "boolean" || f.kind === "enum" ? (
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{f.required ? "choose…" : "(not set)"}</option>
        {(f.kind === "boolean" ? ["true", "false"] : f.options).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    ) : f.kind === "json" ? (
      <textarea id={id} className="input" rows={3} value={value} onChange={(e) => onChange(e.target.value)} placeholder="JSON" />
    ) : (
      <input
        id={id}
        className="input"
        type={f.kind === "string" ? "text" : "number"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      {f.description && <small className="muted">{f.description}</small>}
    </div>
  );
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] })?.content ?? [];
  return content.flatMap((c) => (c.type === "text" && typeof c.text === "string" ? [c.text] : [`[${c.type}]`])).join("\n");
}

function RunResult({ run }: { run: ToolRun }) {
  const text = textOf(run.result);
  const json = JSON.stringify(run.result, null, 2);
  return (
    <section className="panel" data-testid="tool-result">
      <h2>
        Result {run.isError ? <Badge value="error" /> : <Badge value="ok" />}
        <span className="muted">{fmtMs(run.durationMs)}</span>
        <span className="spacer" />
        {run.callId && <a href={formatRoute({ name: "session", id: run.sessionId, call: run.callId })}>Open the recorded call</a>}
      </h2>
      <div className="panel-body" style={{ display: "flex", flexDirection: "column", gap: 10 }}>
        <TextPane title="What an agent gets" text={text} totalChars={text.length} truncated={false} testId="tool-result-text" />
        <TextPane title="The tools/call result (JSON)" text={json} totalChars={json.length} truncated={false} maxHeight={260} />
      </div>
    </section>
  );
}

function ToolPanel({ tool }: { tool: CatalogTool }) {
  const fields = useMemo(() => fieldsOf(tool.inputSchema), [tool]);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.initial])));
  const [problem, setProblem] = useState<string | null>(null);
  const [run, setRun] = useState<ToolRun | null>(null);
  const call = useMutation("tools.run", [...REFRESH]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const a = argsOf(fields, values);
    if (!a.ok) return setProblem(a.message);
    setProblem(null);
    const r = await call.run({ tool: tool.name, args: a.args });
    if (r.ok) setRun(r.value);
  };
  const hints = Object.entries(tool.annotations ?? {}).filter(([k, v]) => k.endsWith("Hint") && v === true);
  return (
    <div style={{ display: "flex", flexDirection: "column", gap: 12, minWidth: 0 }}>
      <div>
        <h2 style={{ margin: "0 0 4px", fontSize: 15 }} className="mono">
          {visibleText(tool.name)}
        </h2>
        {tool.title && <p style={{ margin: "0 0 4px" }}>{visibleText(tool.title)}</p>}
        {tool.name !== tool.upstreamName && (
          <p className="muted" style={{ margin: 0 }}>
            On the upstream: <span className="mono">{visibleText(tool.upstreamName)}</span>
          </p>
        )}
        {hints.length > 0 && (
          <p style={{ margin: "4px 0", display: "flex", gap: 4 }}>
            {hints.map(([k]) => (
              <Badge key={k} value={k.replace(/Hint$/, "")} />
            ))}
          </p>
        )}
        <p style={{ whiteSpace: "pre-wrap", margin: "6px 0 0" }} data-testid="tool-description">
          {tool.description || <span className="muted">No description.</span>}
        </p>
      </div>
      <form onSubmit={submit} className="panel" aria-label={`Run ${tool.name}`}>
        <h2>
          Run it through Spillway{" "}
          <span className="muted" style={{ fontWeight: 400 }}>
            as the inspector's session: rescued and recorded like an agent's call
          </span>
        </h2>
        <div className="panel-body" style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(220px, 1fr))", gap: 10 }}>
          {fields.length === 0 && (
            <p className="muted" style={{ margin: 0 }}>
              This tool takes no arguments.
            </p>
          )}
          {fields.map((f) => (
            <FieldInput key={f.name} f={f} value={values[f.name] ?? ""} onChange={(v) => setValues((o) => ({ ...o, [f.name]: v }))} />
          ))}
        </div>
        <div className="panel-body" style={{ display: "flex", gap: 8, alignItems: "center", borderTop: "1px solid var(--border)" }}>
          <button type="submit" className="btn primary" disabled={call.pending}>
            {call.pending ? "Running…" : `Run ${tool.name}`}
          </button>
          {problem && (
            <span className="bad-text" role="alert">
              {problem}
            </span>
          )}
        </div>
        <ErrorNote error={call.error} />
      </form>
      {run && <RunResult run={run} />}
      <div className="grid-2">
        <TextPane
          title="Input schema"
          text={JSON.stringify(tool.inputSchema, null, 2)}
          totalChars={JSON.stringify(tool.inputSchema, null, 2).length}
          truncated={false}
          testId="input-schema"
        />
        {tool.outputSchema ? (
          <TextPane
            title="Output schema"
            text={JSON.stringify(tool.outputSchema, null, 2)}
            totalChars={JSON.stringify(tool.outputSchema, null, 2).length}
            truncated={false}
            testId="output-schema"
          />
        ) : (
          <p className="muted">No output schema: the tool returns content only.</p>
        )}
      </div>
    </div>
  );
}

export function ToolsView({ selected }: { selected?: string }) {
  const cat = useOp("tools.list", {});
  const all = cat.data?.upstreams.flatMap((u) => u.tools) ?? [];
  const tool = all.find((t) => t.name === selected) ?? all[0];
  return (
    <>
      <ViewHead title="Tools">
        {cat.data && (
          <span className="muted num">
            {fmtInt(all.length)} tools on {fmtInt(cat.data.upstreams.length)} upstreams
          </span>
        )}
        {cat.data && (
          <a className="btn" href={formatRoute({ name: "session", id: cat.data.sessionId })}>
            Runs by hand
          </a>
        )}
      </ViewHead>
      <Progress on={cat.loading || cat.refreshing} label="Listing the upstream tools" />
      <div className="view-body" style={{ display: "grid", gridTemplateColumns: "minmax(200px, 240px) minmax(0, 1fr)", gap: 16 }}>
        <nav aria-label="Upstream tools" data-testid="tool-list" style={{ minWidth: 0 }}>
          <ErrorNote error={cat.error} />
          {cat.data?.upstreams.map((u) => (
            <section key={u.name} style={{ marginBottom: 12 }}>
              <h3 className="sub" style={{ display: "flex", gap: 6, alignItems: "center" }}>
                <span className="mono">{u.name}</span> <Badge value={u.state} /> <span className="muted">{u.transport}</span>
              </h3>
              {u.error && (
                <p className="muted" style={{ margin: "0 0 4px", fontSize: 12 }}>
                  Last error: {u.error}
                </p>
              )}
              <ul className="list">
                {u.tools.map((t) => (
                  <li key={t.name} style={{ border: 0 }}>
                    <a
                      className="agent-tab"
                      href={formatRoute({ name: "tools", tool: t.name })}
                      aria-current={t.name === tool?.name ? "page" : undefined}
                      onClick={(e) => (e.preventDefault(), navigate({ name: "tools", tool: t.name }, true))}
                    >
                      {visibleText(t.name)}
                    </a>
                  </li>
                ))}
                {u.tools.length === 0 && (
                  <li className="muted" style={{ border: 0 }}>
                    No tools listed.
                  </li>
                )}
              </ul>
            </section>
          ))}
        </nav>
        {tool ? (
          <ToolPanel key={tool.name} tool={tool} />
        ) : (
          cat.data && <p className="muted">No upstream tools: add MCP servers under mcpServers in Settings.</p>
        )}
      </div>
    </>
  );
}
