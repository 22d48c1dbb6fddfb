/** The call table's body under a filter: the store's matches over the whole session, a page at a time. */
import { useState } from "react";
import { useOp } from "../../api/useOp";
import { ErrorNote } from "../../components/Ui/Ui";
import { fmtInt } from "../../format/format";
import { CALL_COLUMNS, CallRows } from "./CallTable";
import { findRequest, type CallFilter } from "./CallFilterBar";

export const FILTER_PAGE = 200;

interface RowProps {
  id: string;
  filter: CallFilter;
  open: ReadonlySet<string>;
  onToggle: (k: string) => void;
  waterfall: boolean;
  /** The filter's text is being typed: these matches are for the text before it, so "no match" is not said. */
  typing?: boolean;
}

/** Mount it with a key per filter, so a new filter starts again from its first page. */
export function FilteredCalls(p: RowProps) {
  const [pages, setPages] = useState<number[]>([0]);
  return (
    <>
      {pages.map((after, i) => (
        <FilteredPage
          key={after}
          {...p}
          after={after}
          onMore={i === pages.length - 1 ? (next) => setPages((x) => [...x, next]) : undefined}
        />
      ))}
    </>
  );
}

function FilteredPage(p: RowProps & { after: number; onMore?: (next: number) => void }) {
  const t = useOp("calls.find", findRequest(p.id, p.filter, p.after, FILTER_PAGE));
  const d = t.data;
  const colSpan = p.waterfall ? CALL_COLUMNS : CALL_COLUMNS - 1;
  if (!d)
    return (
      <tbody>
        <tr>
          <td colSpan={colSpan}>
            {t.error ? <ErrorNote error={t.error} /> : <span className="muted">Searching the session's calls…</span>}
          </td>
        </tr>
      </tbody>
    );
  return (
    <tbody>
      {p.after === 0 && !p.typing && d.calls.length === 0 && d.marks.length === 0 && (
        <tr>
          <td colSpan={colSpan} className="muted" data-testid="no-match">
            No call of the {fmtInt(d.total)} in this session matches.
          </td>
        </tr>
      )}
      <CallRows calls={d.calls} marks={d.marks} open={p.open} onToggle={p.onToggle} waterfall={p.waterfall} />
      {d.nextAfter !== null && p.onMore && (
        <tr>
          <td colSpan={colSpan}>
            <button type="button" className="btn small" onClick={() => p.onMore!(d.nextAfter!)}>
              Load the next {FILTER_PAGE} matching calls
            </button>
          </td>
        </tr>
      )}
    </tbody>
  );
}
