/** Search across every stored result (BM25 over the same index rescuer_fetch search uses). */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useOp } from "../../api/useOp";
import { Badge, ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtCompact, fmtInt } from "../../format/format";
import { formatRoute } from "../../router/route";
import { navigate } from "../../router/useRoute";

export function SearchView({ q }: { q?: string }) {
  const [text, setText] = useState(q ?? "");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => setText(q ?? ""), [q]);
  const r = useOp("search.all", { query: q ?? "", topK: 100 }, { enabled: Boolean(q?.trim()) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) navigate({ name: "search", q: text.trim() });
  };
  const d = q ? r.data : undefined;
  return (
    <>
      <ViewHead title="Search">
        <form onSubmit={submit} role="search" style={{ display: "flex", gap: 6 }}>
          <label className="sr-only" htmlFor="global-search">Search all stored results</label>
          <input id="global-search" ref={input} data-shortcut="filter" className="input" style={{ width: 360 }} placeholder="words to find in every stored result" value={text} onChange={(e) => setText(e.target.value)} />
          <button type="submit" className="btn primary">Search</button>
        </form>
      </ViewHead>
      <Progress on={Boolean(q) && (r.loading || r.refreshing)} label="Searching" />
      <div className="view-body">
        <ErrorNote error={q ? r.error : undefined} />
        {!q && <p className="muted">Plain words, ranked by BM25 over every live blob's chunks. Credential blobs are searched in their masked form.</p>}
        {d && (
          <p className="muted" data-testid="search-summary">
            {fmtInt(d.hits.length)} result{d.hits.length === 1 ? "" : "s"} in {d.tookMs} ms
            {d.unindexed > 0 ? ` · ${fmtInt(d.unindexed)} blob${d.unindexed === 1 ? " is" : "s are"} not in the index (very large, or still being indexed)` : ""}
          </p>
        )}
        {d && d.hits.length > 0 && (
          <ul className="list" data-testid="search-hits">
            {d.hits.map((h, i) => (
              <li key={`${h.blobId}:${h.startLine}:${i}`} style={{ padding: "8px 2px" }}>
                <div style={{ display: "flex", gap: 8, alignItems: "center", marginBottom: 3 }}>
                  <a className="mono" href={formatRoute({ name: "blob", id: h.blobId, line: h.startLine })}>
                    {h.blobId} · lines {fmtInt(h.startLine)}–{fmtInt(h.endLine)}
                  </a>
                  <span className="mono">{h.tool}</span>
                  <Badge value={h.kind} />
                  <Badge value={h.label} />
                  {h.state !== "live" && <Badge value={h.state} />}
                  <span className="muted num">{fmtCompact(h.chars)} chars · score {h.score.toFixed(2)}</span>
                </div>
                <pre tabIndex={0} className="text" style={{ maxHeight: 120 }}>{h.snippet}</pre>
              </li>
            ))}
          </ul>
        )}
        {d && d.hits.length === 0 && <p className="muted">Nothing matches “{q}”.</p>}
      </div>
    </>
  );
}
