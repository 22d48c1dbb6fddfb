/**
 * One call opened under its row: what the tool returned beside what the model was given, its
 * structuredContent part, images and audio, what it was passed by reference, every read of its
 * result with the answer the model got, and its raw record (JSON-RPC, or the hook request and answer).
 */
import { useState } from "react";
import type { CallBlob, CallDetail, MediaItem, ReadEvent, RpcView, TextPreview } from "../../../../core/inspector/api/contract";
import { useOp } from "../../api/useOp";
import { TextPane } from "../../components/TextPane/TextPane";
import { Badge, ErrorNote, Tabs } from "../../components/Ui/Ui";
import { fmtBytes, fmtClock, fmtInt, fmtMs } from "../../format/format";
import { formatRoute } from "../../router/route";
import { readerOf, readText, reasonText, removedText } from "./callText";

function BlobLink({ blob }: { blob: CallBlob | null }) {
  if (!blob) return null;
  return (
    <a className="mono" href={formatRoute({ name: "blob", id: blob.id })} title={`${blob.kind}, ${blob.label}, ${blob.state}`}>
      open blob {blob.id}
    </a>
  );
}

/** The tool's result beside what the model was given; one pane when the model got the result itself. */
export function Compare({
  outcome,
  raw,
  given,
  blob,
  testPrefix = "",
}: {
  outcome: string;
  raw: TextPreview;
  given: TextPreview;
  blob: CallBlob | null;
  testPrefix?: string;
}) {
  const absent = (t: TextPreview) => (
    <p className="muted" style={{ margin: 0 }} data-testid={testPrefix + "absent"}>
      {t.source === "pruned"
        ? `Removed with the call's old detail (${t.totalChars.toLocaleString("en-US")} chars; store.detailTtlDays).`
        : "Not kept: the content was neither stored nor small enough to log."}
    </p>
  );
  const pane = (title: string, t: TextPreview, testId: string, link: boolean) =>
    t.source === "missing" || t.source === "pruned" ? (
      absent(t)
    ) : (
      <TextPane
        title={title}
        text={t.text}
        totalChars={t.totalChars}
        truncated={t.truncated}
        testId={testPrefix + testId}
        extra={link && t.truncated ? <BlobLink blob={blob} /> : undefined}
      />
    );
  // An imported call the agent cut (a persisted preview) is a pass-through with less given than returned.
  const cut = outcome === "passthrough" && given.totalChars !== raw.totalChars;
  if ((outcome === "passthrough" && !cut) || outcome === "failed_open") return pane("Tool returned = model was given", raw, "raw", true);
  const title = outcome === "stubbed" ? "Model was given (stub)" : cut ? "Model was given (cut by the agent)" : "Model was given (handle)";
  return (
    <div className="compare">
      {pane("Tool returned", raw, "raw", true)}
      {pane(title, given, "given", false)}
    </div>
  );
}

function Answer({ e }: { e: ReadEvent }) {
  if (!e.answer && e.detailRemovedAt !== null)
    return (
      <p className="muted" style={{ margin: 0 }} data-testid="answer-removed">
        {removedText(e.detailRemovedAt, e.ts, "read")}
      </p>
    );
  if (e.answer)
    return (
      <TextPane
        title="What the model was given"
        text={e.answer.text}
        totalChars={e.answer.totalChars}
        truncated={e.answer.truncated}
        testId="read-answer"
        maxHeight={260}
      />
    );
  const why =
    e.data?.answer === "the whole blob"
      ? "The whole blob, as the model may see it (masked): open the blob to read it."
      : "Not kept: the answer went with the blob's content (purged, expired or evicted), or was recorded before answers were kept.";
  return (
    <p className="muted" style={{ margin: 0 }}>
      {why}
    </p>
  );
}

/** Reads and expansions, each opening onto the text it gave. */
export function ReadList({ events, label }: { events: ReadEvent[]; label: string }) {
  return (
    <ul className="list reads" aria-label={label}>
      {events.map((e) => {
        const refused = e.data?.error === true || e.data?.refused === true || e.data?.outcome === "denied";
        return (
          <li key={e.id} data-testid="read">
            <details>
              <summary>
                <span className="mono muted">{fmtClock(e.ts)}</span> <span className="mono">{readText(e)}</span>
                {refused && (
                  <>
                    {" "}
                    <Badge value="refused" />
                  </>
                )}
                {e.durationMs !== null && <span className="muted"> · {fmtMs(e.durationMs)}</span>}
                {!e.sessionId && <span className="muted"> · {readerOf(e)}</span>}
              </summary>
              <div style={{ padding: "4px 0 8px 16px" }}>
                <Answer e={e} />
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}

function Media({ items, tool }: { items: MediaItem[]; tool: string }) {
  return (
    <div className="media-list">
      {items.map((m, i) => (
        <figure key={i} className="media" data-testid="media">
          {m.thumb && m.mime ? (
            <img src={`data:${m.mime};base64,${m.thumb}`} alt={`${m.type} returned by ${tool}`} />
          ) : (
            <div className="media-none" aria-hidden="true">
              {m.type === "audio" ? "♪" : "▦"}
            </div>
          )}
          <figcaption>
            {m.type} · {m.mime ?? "unknown type"} · {fmtBytes(m.bytes)}
            <br />
            <span className="muted">passed to the model untouched</span>
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

type RpcTab = "request" | "response" | "upstreamRequest" | "upstreamResponse";

/** The section title of a call's raw record: its JSON-RPC, or the hook request its host sent. */
export const rawRecordTitle = (rpc: RpcView) => (rpc.kind === "hook" ? "Hook request and answer" : "JSON-RPC");

export function RpcPanel({ rpc, idPrefix }: { rpc: RpcView; idPrefix: string }) {
  const [tab, setTab] = useState<RpcTab>("request");
  const hook = rpc.kind === "hook";
  const tabs: { id: RpcTab; label: string }[] = [
    { id: "request", label: hook ? "Hook request" : "Request" },
    { id: "response", label: hook ? "Spillway answered" : "Response" },
    ...(rpc.upstreamRequest ? [{ id: "upstreamRequest" as const, label: hook ? "PreToolUse request" : "Sent upstream" }] : []),
    ...(rpc.upstreamResponse ? [{ id: "upstreamResponse" as const, label: hook ? "PreToolUse answer" : "Upstream answered" }] : []),
  ];
  const text = rpc[tab] ?? "(none)";
  return (
    <div className="rpc" data-testid="rpc">
      <Tabs<RpcTab> label={rawRecordTitle(rpc)} value={tab} onChange={setTab} tabs={tabs} idPrefix={idPrefix} />
      <div role="tabpanel" aria-labelledby={`${idPrefix}-${tab}`}>
        <pre tabIndex={0} className="text nowrap" data-testid="rpc-text" style={{ maxHeight: 320, borderRadius: 0 }}>
          {text}
        </pre>
      </div>
    </div>
  );
}

/** Who failed the call: the agent's own tool (a hook reported it), the upstream, or the routing. */
function failureText(server: string | null, rpc: RpcView | null): string {
  if (rpc?.kind === "hook")
    return `The tool failed in the agent${server ? ` (MCP server ${server})` : ""}, which reported it to Spillway's hook`;
  return server ? `The upstream ${server} failed or refused the call` : "The call could not be routed";
}

/** A call opened: everything the audit trail has of it (exported for its test). */
export function CallBody({ d }: { d: CallDetail }) {
  const c = d.call;
  return (
    <>
      {d.detailRemovedAt !== null && (
        <div className="callout" data-testid="detail-removed">
          <b>Old detail removed.</b> {removedText(d.detailRemovedAt, c.ts, "call")} Its raw record, the texts it returned and was given and
          its thumbnails went; its figures, its reads and a preview of its arguments are kept.
        </div>
      )}
      {d.call.argsJson && d.call.argsJson !== "{}" && (
        <TextPane title="Arguments" text={d.call.argsJson} totalChars={d.call.argsJson.length} truncated={false} maxHeight={140} />
      )}
      {c.outcome === "error" ? (
        <div className="callout bad" data-testid="call-error">
          <b>No result.</b> {failureText(c.server, d.rpc)}; the model was given this {d.rpc?.kind === "hook" ? "error" : "sentence"}:
          <pre className="text wrap" style={{ marginTop: 6 }}>
            {d.raw.text}
          </pre>
        </div>
      ) : (
        <>
          {c.reason && (
            <p className={`callout${c.reason === "no_spillway_tools" ? " warn" : ""}`} data-testid="call-reason">
              {reasonText(c.reason, c.outcome)}
            </p>
          )}
          <Compare outcome={c.outcome} raw={d.raw} given={d.given} blob={c.blob} />
        </>
      )}
      {d.parts.map((p) => (
        <section key={p.call.id}>
          <h3>
            structuredContent, stored apart <Badge value={p.call.outcome} />
          </h3>
          <Compare outcome={p.call.outcome} raw={p.raw} given={p.given} blob={p.blob} testPrefix="part-" />
        </section>
      ))}
      {d.media.length > 0 && (
        <section>
          <h3>Images and audio ({fmtInt(d.media.length)})</h3>
          <Media items={d.media} tool={c.tool} />
        </section>
      )}
      {d.received.length > 0 && (
        <section>
          <h3>
            Passed to it by reference ({fmtInt(c.received.expanded)} expanded, {fmtInt(c.received.denied)} denied)
          </h3>
          <ReadList events={d.received} label="Passed to it by reference" />
        </section>
      )}
      {c.outcome !== "error" && (
        <section>
          <h3>Read back later ({fmtInt(d.reads.length)})</h3>
          {d.reads.length === 0 ? (
            <p className="muted" style={{ margin: 0 }}>
              Nothing read this result back.
            </p>
          ) : (
            <ReadList events={d.reads} label="Read back later" />
          )}
        </section>
      )}
      {d.rpc ? (
        <section>
          <h3>{rawRecordTitle(d.rpc)}</h3>
          <RpcPanel rpc={d.rpc} idPrefix={`rpc-${c.id}`} />
        </section>
      ) : (
        d.detailRemovedAt !== null && (
          <section>
            <h3>Raw record</h3>
            <p className="muted" style={{ margin: 0 }} data-testid="rpc-removed">
              {removedText(d.detailRemovedAt, c.ts, "call")}
            </p>
          </section>
        )
      )}
    </>
  );
}

export function CallDetailPanel({ callId }: { callId: number }) {
  const d = useOp("calls.get", { callId });
  return (
    <div className="call-detail" data-testid="call-detail">
      <ErrorNote error={d.error} />
      {d.loading && <p className="muted">Loading the call…</p>}
      {d.data && <CallBody d={d.data} />}
    </div>
  );
}
