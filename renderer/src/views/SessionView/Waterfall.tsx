/** One call's bar in the latency waterfall: where it started and how long it ran, the upstream's part shaded. */
import { fmtMs } from "../../format/format";

export interface WaterfallScale {
  from: number;
  to: number;
}

type Timed = { startedAt: number; ts: number; durationMs: number | null };

/** When a call ended: its start plus its duration, when known; else when its result was recorded. */
export const endOf = (c: Timed) => (c.durationMs !== null ? c.startedAt + c.durationMs : c.ts);

/** The time span of a page of calls (start of the first to end of the last). */
export function scaleOf(calls: Timed[]): WaterfallScale {
  if (calls.length === 0) return { from: 0, to: 1 };
  const from = Math.min(...calls.map((c) => c.startedAt));
  const to = Math.max(...calls.map(endOf));
  return { from, to: Math.max(to, from + 1) };
}

export function WaterfallBar({
  startedAt,
  ts,
  durationMs,
  upstreamMs,
  scale,
}: Timed & { upstreamMs: number | null; scale: WaterfallScale }) {
  const span = scale.to - scale.from;
  const left = ((startedAt - scale.from) / span) * 100;
  const width = ((endOf({ startedAt, ts, durationMs }) - startedAt) / span) * 100;
  const up = durationMs && upstreamMs !== null ? Math.min(100, (upstreamMs / durationMs) * 100) : 0;
  const label =
    durationMs === null
      ? `at +${fmtMs(ts - scale.from)}; duration not reported`
      : `started at +${fmtMs(startedAt - scale.from)}, took ${fmtMs(durationMs)}${upstreamMs !== null ? ` (upstream ${fmtMs(upstreamMs)})` : ""}`;
  return (
    <div className="wf" role="img" aria-label={label} title={label}>
      <div
        className={`wf-bar${durationMs === null ? " unknown" : ""}`}
        style={{ left: `${Math.min(left, 99.5)}%`, width: `max(2px, ${width}%)` }}
      >
        {up > 0 && <div className="wf-up" style={{ width: `${up}%` }} />}
      </div>
    </div>
  );
}
