/**
 * Net savings per group (tool, upstream, session) as horizontal bars. The exact number is
 * printed beside each bar, so the chart reads without hovering and tests can check it.
 */
import type { ReactNode } from "react";
import { fmtInt } from "../../format/format";
import type { Bar } from "./figures";

export interface BarListProps {
  bars: Bar[];
  unit: string;
  /** Renders a group's name, e.g. as a link to its blobs. */
  renderKey?: (key: string) => ReactNode;
  testId?: string;
  emptyText: string;
}

export function BarList({ bars, unit, renderKey, testId, emptyText }: BarListProps) {
  if (bars.length === 0) return <p className="muted panel-body">{emptyText}</p>;
  const max = Math.max(1, ...bars.map((b) => Math.abs(b.net)));
  return (
    <ul className="list barlist" data-testid={testId} aria-label={`Net savings in ${unit}`}>
      {bars.map((b) => {
        const w = (Math.abs(b.net) / max) * 100;
        return (
          <li
            key={b.key}
            data-key={b.key}
            data-net={b.net}
            style={{
              display: "grid",
              gridTemplateColumns: "minmax(90px, 34%) 1fr 92px",
              alignItems: "center",
              gap: 8,
              padding: "3px 12px",
            }}
          >
            <span className="mono" style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} title={b.key}>
              {renderKey ? renderKey(b.key) : b.key}
            </span>
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" height="10" width="100%" aria-hidden="true">
              <rect x="0" y="0" width="100" height="10" fill="var(--panel-2)" rx="1" />
              <rect x="0" y="0" width={w} height="10" fill={b.net < 0 ? "var(--bar-neg)" : "var(--bar)"} rx="1" />
            </svg>
            <span className="num" title={`returned ${fmtInt(b.returned)}, given ${fmtInt(b.given)}, pulled back ${fmtInt(b.pulled)}`}>
              {fmtInt(b.net)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
