/** The blobs table's filter bar; text inputs apply after a short pause so typing stays smooth. */
import { useEffect, useState } from "react";
import type { BlobFilter, Kind, Label } from "../../../../core/inspector/api/contract";
import { BLOB_STATES as STATES, LABELS } from "../../../../core/vocabulary";
import { useOp } from "../../api/useOp";

function useDebounced<T>(value: T, ms = 200): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function BlobFilters({ initial, onChange }: { initial: BlobFilter; onChange: (f: BlobFilter) => void }) {
  const facets = useOp("blobs.facets", {});
  const [text, setText] = useState(initial.text ?? "");
  const [tool, setTool] = useState(initial.tool ?? "");
  const [session, setSession] = useState(initial.sessionId ?? "");
  const [kind, setKind] = useState<Kind | "">(initial.kinds?.[0] ?? "");
  const [label, setLabel] = useState<Label | "">(initial.labels?.[0] ?? "");
  const [state, setState] = useState<string>(initial.states?.[0] ?? "");
  const [minKb, setMinKb] = useState("");
  const [from, setFrom] = useState("");
  const dText = useDebounced(text);
  const dSession = useDebounced(session);
  const dMin = useDebounced(minKb);

  useEffect(() => {
    const f: BlobFilter = {};
    if (dText.trim()) f.text = dText.trim();
    if (tool) f.tool = tool;
    if (dSession.trim()) f.sessionId = dSession.trim();
    if (kind) f.kinds = [kind];
    if (label) f.labels = [label];
    if (state) f.states = [state as (typeof STATES)[number]];
    const min = Number(dMin);
    if (dMin && Number.isFinite(min) && min > 0) f.minChars = Math.round(min * 1000);
    if (from) f.from = new Date(from + "T00:00:00").getTime();
    onChange(f);
  }, [dText, tool, dSession, kind, label, state, dMin, from]);

  return (
    <div className="toolbar" role="search" aria-label="Filter blobs">
      <label className="field">
        <span>Search</span>
        <input className="input" data-shortcut="filter" placeholder="id, tool, shape…" value={text} onChange={(e) => setText(e.target.value)} style={{ width: 180 }} />
      </label>
      <label className="field">
        <span>Tool</span>
        <select className="input" value={tool} onChange={(e) => setTool(e.target.value)} style={{ maxWidth: 200 }}>
          <option value="">any</option>
          {facets.data?.tools.map((t) => (
            <option key={t} value={t}>{t}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Session</span>
        <input className="input" placeholder="session id" value={session} onChange={(e) => setSession(e.target.value)} style={{ width: 150 }} />
      </label>
      <label className="field">
        <span>Kind</span>
        <select className="input" value={kind} onChange={(e) => setKind(e.target.value as Kind | "")}>
          <option value="">any</option>
          {facets.data?.kinds.map((k) => (
            <option key={k} value={k}>{k}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Label</span>
        <select className="input" value={label} onChange={(e) => setLabel(e.target.value as Label | "")}>
          <option value="">any</option>
          {LABELS.map((l) => (
            <option key={l} value={l}>{l}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>State</span>
        <select className="input" value={state} onChange={(e) => setState(e.target.value)}>
          <option value="">any</option>
          {STATES.map((s) => (
            <option key={s} value={s}>{s}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Min size (k chars)</span>
        <input className="input" type="number" min={0} inputMode="numeric" value={minKb} onChange={(e) => setMinKb(e.target.value)} style={{ width: 110 }} />
      </label>
      <label className="field">
        <span>Stored since</span>
        <input className="input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
    </div>
  );
}
