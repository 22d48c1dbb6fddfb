/** The blobs table's filter bar; text inputs apply after a short pause so typing stays smooth. */
import { useLayoutEffect, useRef, useState } from "react";
import { BLOB_STATES as STATES, LABELS } from "../../../../core/vocabulary";
import type { BlobQuery } from "../../router/route";
import { useOp } from "../../api/useOp";
import { useDebounced } from "../../api/useDebounced";
import { AnySelect, type SelectOption } from "../../components/Ui/Ui";

/** How the model was given a blob's content, as the blobs list filters it. */
const ROLES: readonly SelectOption[] = [
  { value: "rescued", text: "handle (rescued)" },
  { value: "dedup", text: "in full (dedup copy)" },
  { value: "other", text: "no call recorded" },
];

/**
 * The filter bar over a URL query of strings; text fields report after a short pause, and
 * `onPending(true)` says one of them holds text not reported yet (its count is not known).
 */
export function BlobFilters({
  initial,
  onChange,
  onPending,
}: {
  initial: BlobQuery;
  onChange: (q: BlobQuery) => void;
  onPending: (pending: boolean) => void;
}) {
  const facets = useOp("blobs.facets", {});
  const [text, setText] = useState(initial.q ?? "");
  const [tool, setTool] = useState(initial.tool ?? "");
  const [session, setSession] = useState(initial.session ?? "");
  const [kind, setKind] = useState(initial.kind ?? "");
  const [label, setLabel] = useState(initial.label ?? "");
  const [state, setState] = useState(initial.state ?? "");
  const [role, setRole] = useState(initial.role ?? "");
  const [minKb, setMinKb] = useState(initial.min ?? "");
  const [from, setFrom] = useState(initial.from ?? "");
  const { value: dText, settled: textSettled } = useDebounced(text);
  const { value: dSession, settled: sessionSettled } = useDebounced(session);
  const { value: dMin, settled: minSettled } = useDebounced(minKb);
  const settled = textSettled && sessionSettled && minSettled;
  const first = useRef(true);

  // Layout effects, so the view hears of the pause, and then of the new query, before the
  // browser paints: no frame shows the new text beside the previous query's count.
  useLayoutEffect(() => onPending(!settled), [settled]);
  useLayoutEffect(() => {
    // The first pass is the URL itself: reporting it back would only rewrite the same URL.
    if (first.current) {
      first.current = false;
      return;
    }
    onChange({ q: dText, tool, session: dSession, kind, label, state, role, min: dMin, from });
  }, [dText, tool, dSession, kind, label, state, role, dMin, from]);

  return (
    <div className="toolbar" role="search" aria-label="Filter blobs">
      <label className="field">
        <span>Search</span>
        <input
          className="input"
          data-shortcut="filter"
          placeholder="id, tool, shape…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          style={{ width: 150 }}
        />
      </label>
      <AnySelect label="Tool" value={tool} options={facets.data?.tools ?? []} onChange={setTool} style={{ maxWidth: 170 }} />
      <label className="field">
        <span>Session</span>
        <input
          className="input"
          placeholder="session id"
          value={session}
          onChange={(e) => setSession(e.target.value)}
          style={{ width: 120 }}
        />
      </label>
      <AnySelect label="Kind" value={kind} options={facets.data?.kinds ?? []} onChange={setKind} />
      <AnySelect label="Label" value={label} options={LABELS} onChange={setLabel} />
      <AnySelect label="State" value={state} options={STATES} onChange={setState} />
      <AnySelect
        label="Given as"
        value={role}
        options={ROLES}
        onChange={setRole}
        title="rescued: the model got a handle; dedup copy: the model got it in full, the copy stubs repeats"
      />
      <label className="field">
        <span>Min size (k chars)</span>
        <input
          className="input"
          type="number"
          min={0}
          inputMode="numeric"
          value={minKb}
          onChange={(e) => setMinKb(e.target.value)}
          style={{ width: 90 }}
        />
      </label>
      <label className="field">
        <span>Stored since</span>
        <input className="input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
    </div>
  );
}
