/** Places an answer points at, as buttons: click (or Enter) jumps the viewer there. Text only. */
import type { Jump } from "../../../../core/inspector/api/contract";
import { fmtInt } from "../../format/format";

export function HitList({ jumps, onJump, testId }: { jumps: Jump[]; onJump: (j: Jump) => void; testId?: string }) {
  if (jumps.length === 0) return null;
  return (
    <ul className="list" data-testid={testId} aria-label="Places in the blob">
      {jumps.map((j, i) => (
        <li key={`${j.line}:${j.startCol ?? ""}:${i}`}>
          <button type="button" className="row" data-line={j.line} onClick={() => onJump(j)}>
            <span className="muted">L{fmtInt(j.line).replace(/,/g, "")} </span>
            <Highlighted
              text={j.text}
              from={shift(j.startCol, j.textStart)}
              to={shift(j.endCol, j.textStart)}
              prefix={(j.textStart ?? 0) > 0}
            />
          </button>
        </li>
      ))}
    </ul>
  );
}

const shift = (col: number | undefined, by: number | undefined) => (col === undefined ? undefined : col - (by ?? 0));

/** The line with its match marked; long lines are cut around the match. */
function Highlighted({ text, from, to, prefix }: { text: string; from?: number; to?: number; prefix: boolean }) {
  if (from === undefined || to === undefined || to <= from || from >= text.length) return <>{text.slice(0, 240)}</>;
  const start = Math.max(0, from - 80);
  return (
    <>
      {(prefix || start > 0) && "…"}
      {text.slice(start, from)}
      <mark>{text.slice(from, Math.min(to, text.length))}</mark>
      {text.slice(Math.min(to, text.length), to + 160)}
    </>
  );
}
