/**
 * The call table's filter bar: tool, outcome, text and failures only. The store answers the
 * filter over all of the session's calls (`calls.find`), not only the pages already loaded.
 */
import type { Outcome, Req } from "../../../../core/inspector/api/contract";
import { OUTCOMES } from "../../../../core/vocabulary";
import { useOp } from "../../api/useOp";
import { LiveCount } from "../../components/LiveCount/LiveCount";
import { fmtInt, visibleText } from "../../format/format";

export interface CallFilter {
  text: string;
  outcome: Outcome | "";
  tool: string;
  errorsOnly: boolean;
}

export const NO_FILTER: CallFilter = { text: "", outcome: "", tool: "", errorsOnly: false };

export const isFiltered = (f: CallFilter) => f.text.trim() !== "" || f.outcome !== "" || f.tool !== "" || f.errorsOnly;

/** The `calls.find` request of a filter's page after `afterCallId`: one spelling, so pages and the count share a cache entry. */
export function findRequest(sessionId: string, f: CallFilter, afterCallId: number, limit: number): Req<"calls.find"> {
  const text = f.text.trim();
  return {
    sessionId,
    ...(f.tool ? { tool: f.tool } : {}),
    ...(f.outcome ? { outcome: f.outcome } : {}),
    ...(text ? { text } : {}),
    failuresOnly: f.errorsOnly,
    afterCallId,
    limit,
  };
}

export function CallFilterBar(p: {
  sessionId: string;
  filter: CallFilter;
  onChange: (f: CallFilter) => void;
  /** The filter's count from its first page (`pending` while typed text waits to be sent and until its answer is in); null when no filter applies. */
  counts: { matched: number; total: number; pending: boolean } | null;
  onCloseAll: () => void;
  canClose: boolean;
}) {
  const { filter, onChange } = p;
  // The session's tools, most called first (a one-row query: the tool list comes with any page).
  const tools = useOp("calls.find", { sessionId: p.sessionId, failuresOnly: false, afterCallId: 0, limit: 1 }).data?.tools ?? [];
  return (
    <div
      className="toolbar"
      style={{ border: "1px solid var(--border)", borderBottom: 0, borderRadius: "7px 7px 0 0", alignItems: "center" }}
      role="search"
      aria-label="Filter calls"
    >
      <label className="sr-only" htmlFor="call-filter">
        Filter calls by tool, argument or error
      </label>
      <input
        id="call-filter"
        data-shortcut="filter"
        className="input"
        placeholder="tool, argument, error…"
        value={filter.text}
        onChange={(e) => onChange({ ...filter, text: e.target.value })}
        style={{ width: 220 }}
      />
      <label className="check">
        <span className="muted">Tool</span>
        <select className="input" value={filter.tool} onChange={(e) => onChange({ ...filter, tool: e.target.value })} aria-label="Tool">
          <option value="">any</option>
          {tools.map((t) => (
            <option key={t.tool} value={t.tool}>
              {visibleText(t.tool)} ({fmtInt(t.calls)})
            </option>
          ))}
          {filter.tool && !tools.some((t) => t.tool === filter.tool) && <option value={filter.tool}>{visibleText(filter.tool)}</option>}
        </select>
      </label>
      <label className="check">
        <span className="muted">Outcome</span>
        <select
          className="input"
          value={filter.outcome}
          onChange={(e) => onChange({ ...filter, outcome: e.target.value as CallFilter["outcome"] })}
          aria-label="Outcome"
        >
          <option value="">any</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={filter.errorsOnly} onChange={(e) => onChange({ ...filter, errorsOnly: e.target.checked })} />{" "}
        failures and refusals only
      </label>
      {p.counts && (
        <LiveCount testId="call-matches" className="muted" pending={p.counts.pending} pendingLabel="counting the matching calls">
          {fmtInt(p.counts.matched)} of {fmtInt(p.counts.total)} calls match
        </LiveCount>
      )}
      <span className="spacer" style={{ flex: 1 }} />
      <button type="button" className="btn small" onClick={p.onCloseAll} disabled={!p.canClose}>
        Close all
      </button>
    </div>
  );
}
