/**
 * Savings over time: per UTC day or hour, what tools returned beside what the model was given
 * plus pulled back; the difference is the net saving printed above each bar.
 */
import { fmtCompact, fmtInt } from "../../format/format";
import { niceMax, type Bar } from "./figures";
import { useWidth } from "./useWidth";

const H = 170;
const PAD = { top: 18, right: 8, bottom: 22, left: 48 };

export function SavingsTimeChart({ bars, unit, period }: { bars: Bar[]; unit: string; period: "hour" | "day" }) {
  const { ref, width } = useWidth<HTMLDivElement>();
  const max = niceMax(Math.max(0, ...bars.map((b) => b.returned)));
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = H - PAD.top - PAD.bottom;
  const slot = bars.length ? plotW / bars.length : plotW;
  const barW = Math.max(3, Math.min(28, slot / 2.6));
  const y = (v: number) => PAD.top + plotH - (Math.max(0, v) / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.max(1, Math.ceil(bars.length / Math.max(1, Math.floor(plotW / 70))));
  const label = (key: string) => (period === "hour" ? `${key.slice(11, 13)}h` : key.slice(5));
  const shown = period === "hour" ? bars.filter((b) => b.returned !== 0 || b.net !== 0) : bars;
  const summary = shown
    .map((b) => `${b.key}: returned ${fmtInt(b.returned)}, given ${fmtInt(b.given)}, pulled back ${fmtInt(b.pulled)}, net ${fmtInt(b.net)}`)
    .join("; ");
  return (
    <div ref={ref} data-testid={`savings-by-${period}`}>
      <svg width={width} height={H} role="img" aria-label={`Savings per ${period} (UTC) in ${unit}. ${summary || "No calls yet."}`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(t)} y2={y(t)} stroke="var(--border)" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="10" fill="var(--muted)">
              {fmtCompact(t)}
            </text>
          </g>
        ))}
        {bars.map((b, i) => {
          const cx = PAD.left + slot * i + slot / 2;
          const spent = b.given + b.pulled;
          return (
            <g key={b.key} data-key={b.key} data-net={b.net}>
              <rect x={cx - barW - 1} y={y(b.returned)} width={barW} height={PAD.top + plotH - y(b.returned)} fill="var(--bar-2)" />
              <rect x={cx + 1} y={y(spent)} width={barW} height={PAD.top + plotH - y(spent)} fill="var(--bar)" />
              {(b.returned !== 0 || b.net !== 0) && (
                <text
                  x={edgeX(cx, width)}
                  y={Math.min(y(b.returned), y(spent)) - 4}
                  textAnchor={cx > width - PAD.right - 24 ? "end" : cx < PAD.left + 24 ? "start" : "middle"}
                  fontSize="10"
                  fill="var(--text)"
                >
                  {fmtCompact(b.net)}
                </text>
              )}
              {i % labelEvery === 0 && (
                <text x={cx} y={H - 6} textAnchor="middle" fontSize="10" fill="var(--muted)">
                  {label(b.key)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <div className="muted" style={{ display: "flex", gap: 14, fontSize: 11, padding: "0 0 0 48px" }}>
        <span>
          <Swatch color="var(--bar-2)" /> returned by tools
        </span>
        <span>
          <Swatch color="var(--bar)" /> given to the model + pulled back
        </span>
        <span>number: net saved</span>
      </div>
    </div>
  );
}

/** Labels near the plot's edges are anchored inside it rather than cut off. */
function edgeX(cx: number, width: number): number {
  return Math.min(Math.max(cx, PAD.left), width - PAD.right);
}

function Swatch({ color }: { color: string }) {
  return (
    <svg width="9" height="9" aria-hidden="true" style={{ marginRight: 3 }}>
      <rect width="9" height="9" fill={color} rx="2" />
    </svg>
  );
}
