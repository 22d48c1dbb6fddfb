/**
 * Search across every stored result (BM25 over the same index rescuer_fetch search uses): hits
 * grouped by blob or by session, the query's words marked, and filters by label, kind and tool.
 * The query, filters and grouping live in the URL.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import type { BlobFilter, GlobalHit, Kind, Label } from "../../../../core/inspector/api/contract";
import { KINDS, LABELS } from "../../../../core/vocabulary";
import { useOp } from "../../api/useOp";
import { LiveCount } from "../../components/LiveCount/LiveCount";
import { AnySelect, Badge, ErrorNote, Progress, ViewHead } from "../../components/Ui/Ui";
import { fmtCompact, fmtInt, plural, shortId, visibleText } from "../../format/format";
import { formatRoute, type Route } from "../../router/route";
import { navigate } from "../../router/useRoute";
import { groupHits, markPieces, queryWords, type Grouping } from "./searchGroups";

type SearchRoute = Extract<Route, { name: "search" }>;

function Snippet({ text, words }: { text: string; words: string[] }) {
  return (
    <pre tabIndex={0} className="text wrap" style={{ maxHeight: 120 }}>
      {markPieces(visibleText(text), words).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : p.text))}
    </pre>
  );
}

function HitLine({ h, words }: { h: GlobalHit; words: string[] }) {
  return (
    <li style={{ padding: "6px 2px" }} data-testid="search-hit">
      <a className="mono" href={formatRoute({ name: "blob", id: h.blobId, line: h.startLine })}>
        lines {fmtInt(h.startLine)}–{fmtInt(h.endLine)}
      </a>{" "}
      <span className="muted num">score {h.score.toFixed(2)}</span>
      <Snippet text={h.snippet} words={words} />
    </li>
  );
}

function BlobHead({ h, count }: { h: GlobalHit; count: number }) {
  return (
    <div className="hit-head">
      <a className="mono" href={formatRoute({ name: "blob", id: h.blobId })}>
        {h.blobId}
      </a>
      <span className="mono">{visibleText(h.tool)}</span>
      <Badge value={h.kind} />
      <Badge value={h.label} />
      {h.state !== "live" && <Badge value={h.state} />}
      <span className="muted num">
        {fmtCompact(h.chars)} chars · {plural(count, "hit")}
      </span>
    </div>
  );
}

function Results({ hits, group, words }: { hits: GlobalHit[]; group: Grouping; words: string[] }) {
  const groups = useMemo(() => groupHits(hits, group), [hits, group]);
  return (
    <ul className="list" data-testid="search-hits">
      {groups.map((g) => (
        <li key={g.key} style={{ padding: "8px 2px" }} data-testid="search-group">
          {group === "session" ? (
            <>
              <div className="hit-head">
                <span className="muted">session</span>
                <a className="mono" href={formatRoute({ name: "session", id: g.key })} title={g.key}>
                  {shortId(g.key, 24)}
                </a>
                <span className="muted num">
                  {plural(g.hits.length, "hit")} in {plural(new Set(g.hits.map((h) => h.blobId)).size, "blob")}
                </span>
              </div>
              <ul className="list" style={{ paddingLeft: 14 }}>
                {groupHits(g.hits, "blob").map((b) => (
                  <li key={b.key}>
                    <BlobHead h={b.hits[0]!} count={b.hits.length} />
                    <ul className="list">
                      {b.hits.map((h, i) => (
                        <HitLine key={i} h={h} words={words} />
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <BlobHead h={g.hits[0]!} count={g.hits.length} />
              <ul className="list" style={{ paddingLeft: 14 }}>
                {g.hits.map((h, i) => (
                  <HitLine key={i} h={h} words={words} />
                ))}
              </ul>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function SearchView({ route }: { route: SearchRoute }) {
  const q = route.q;
  const [text, setText] = useState(q ?? "");
  const input = useRef<HTMLInputElement>(null);
  const facets = useOp("blobs.facets", {});
  useEffect(() => input.current?.focus(), []);
  useEffect(() => setText(q ?? ""), [q]);
  const group: Grouping = route.group === "session" || route.group === "none" ? route.group : "blob";
  const filter: BlobFilter = {
    ...(route.label && (LABELS as readonly string[]).includes(route.label) ? { labels: [route.label as Label] } : {}),
    ...(route.kind && (KINDS as readonly string[]).includes(route.kind) ? { kinds: [route.kind as Kind] } : {}),
    ...(route.tool ? { tool: route.tool } : {}),
  };
  const r = useOp("search.all", { query: q ?? "", topK: 100, filter }, { enabled: Boolean(q?.trim()) });
  const go = (patch: Partial<SearchRoute>) => navigate({ ...route, ...patch }, true);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // An emptied box is a search for nothing: back to the empty state, not the last query's results.
    const next = text.trim() || undefined;
    if (next !== q) navigate({ ...route, q: next });
  };
  const d = q ? r.data : undefined;
  const words = useMemo(() => queryWords(q ?? ""), [q]);
  return (
    <>
      <ViewHead title="Search">
        <form onSubmit={submit} role="search" style={{ display: "flex", gap: 6 }}>
          <label className="sr-only" htmlFor="global-search">
            Search all stored results
          </label>
          <input
            id="global-search"
            ref={input}
            data-shortcut="filter"
            className="input"
            style={{ width: 320 }}
            placeholder="words to find in every stored result"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn primary">
            Search
          </button>
        </form>
      </ViewHead>
      <div className="toolbar" aria-label="Search filters" role="group">
        <label className="field">
          <span>Group by</span>
          <select className="input" value={group} onChange={(e) => go({ group: e.target.value === "blob" ? undefined : e.target.value })}>
            <option value="blob">blob</option>
            <option value="session">session</option>
            <option value="none">nothing (by score)</option>
          </select>
        </label>
        <AnySelect label="Label" value={route.label ?? ""} options={LABELS} onChange={(v) => go({ label: v || undefined })} />
        <AnySelect
          label="Kind"
          value={route.kind ?? ""}
          options={facets.data?.kinds ?? []}
          onChange={(v) => go({ kind: v || undefined })}
        />
        <AnySelect
          label="Tool"
          value={route.tool ?? ""}
          options={facets.data?.tools ?? []}
          onChange={(v) => go({ tool: v || undefined })}
          style={{ maxWidth: 200 }}
        />
      </div>
      <Progress on={Boolean(q) && (r.loading || r.refreshing)} label="Searching" />
      <div className="view-body">
        <ErrorNote error={q ? r.error : undefined} />
        {!q && (
          <p className="muted">
            Plain words, ranked by BM25 over every live blob's chunks (any of the words). Credential blobs are searched in their masked
            form.
          </p>
        )}
        {q && !r.error && (
          <p className="muted">
            <LiveCount testId="search-summary" className="" pending={!d || r.stale} pendingLabel="counting the results">
              {d && (
                <>
                  {plural(d.hits.length, "result")} in {plural(new Set(d.hits.map((h) => h.blobId)).size, "blob")}, {d.tookMs} ms
                  {d.unindexed > 0
                    ? ` · ${fmtInt(d.unindexed)} blob${d.unindexed === 1 ? " is" : "s are"} not in the index (very large, or still being indexed)`
                    : ""}
                  {d.narrowedTo !== null
                    ? ` · words this common are ranked among the newest ${fmtInt(d.narrowedTo)} passages that hold them: add a rarer word to search them all`
                    : ""}
                </>
              )}
            </LiveCount>
          </p>
        )}
        {d && d.hits.length > 0 && <Results hits={d.hits} group={group} words={words} />}
        {/* The previous query's empty answer says nothing about this one. */}
        {d && d.hits.length === 0 && !r.stale && (
          <p className="muted">
            Nothing matches “{q}”{Object.keys(filter).length ? " with these filters" : ""}.
          </p>
        )}
      </div>
    </>
  );
}
