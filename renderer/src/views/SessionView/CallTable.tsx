/**
 * A page of a session's calls as compact rows (time, tool, outcome, returned → given, reads, by
 * reference, duration, waterfall), with the session's marks (turns, compactions, refused reads)
 * in between. A row opens onto the whole call below it.
 */
import { Fragment } from "react";
import type { CallSummary, LedgerEvent } from "../../../../core/inspector/api/contract";
import { Badge } from "../../components/Ui/Ui";
import { fmtClock, fmtCompact, fmtInt, fmtMs, fmtTime, fmtTokens, visibleText } from "../../format/format";
import { ESTIMATE_NOTE } from "../../../../core/vocabulary";
import { CallDetailPanel, ReadList } from "./CallDetailPanel";
import { markText } from "./callText";
import { scaleOf, WaterfallBar, type WaterfallScale } from "./Waterfall";
import { useOp } from "../../api/useOp";

export const CALL_COLUMNS = 8;

export type Entry = { kind: "call"; at: number; call: CallSummary } | { kind: "mark"; at: number; mark: LedgerEvent };

/** Calls and marks in the order they happened (a call at its own ledger event). */
export function entriesOf(calls: CallSummary[], marks: LedgerEvent[]): Entry[] {
  const out: Entry[] = [
    ...calls.map((c) => ({ kind: "call" as const, at: c.seq, call: c })),
    ...marks.map((m) => ({ kind: "mark" as const, at: m.id, mark: m })),
  ];
  return out.sort((a, b) => a.at - b.at);
}

function refText(c: CallSummary): string {
  const r = c.received;
  if (!r.expanded && !r.denied) return "";
  return [r.expanded ? `↳ ${fmtCompact(r.chars)} in` : "", r.denied ? `${fmtInt(r.denied)} denied` : ""].filter(Boolean).join(" · ");
}

function CallRow({ c, open, onToggle, scale }: { c: CallSummary; open: boolean; onToggle: () => void; scale: WaterfallScale | null }) {
  const tokens =
    c.returnedTokens !== null && c.givenTokens !== null
      ? `${fmtTokens(c.returnedTokens, c.tokensEstimated)} → ${fmtTokens(c.givenTokens, c.tokensEstimated)} tokens${c.tokensEstimated ? ` (${ESTIMATE_NOTE})` : ""}`
      : "tokens still being counted";
  return (
    <tr className="call-row" data-testid="call-row" data-outcome={c.outcome} data-call-id={c.id} data-open={open}>
      <td title={fmtTime(c.ts)}>
        <button
          type="button"
          className="row-toggle"
          aria-expanded={open}
          aria-controls={`call-${c.id}`}
          onClick={onToggle}
          aria-label={`${open ? "Close" : "Open"} ${c.tool} at ${fmtClock(c.startedAt)}`}
        >
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
          {fmtClock(c.startedAt)}
        </button>
      </td>
      <td className="mono" title={visibleText(`${c.tool}${c.server ? ` on ${c.server}` : ""}${c.argsPreview ? `\n${c.argsPreview}` : ""}`)}>
        {visibleText(c.tool)}
        {c.server && <span className="muted"> {c.server}</span>}
      </td>
      <td title={c.errorText ?? undefined}>
        <Badge value={c.outcome} />
        {c.isError && c.outcome !== "error" && (
          <>
            {" "}
            <Badge value="error" title="The tool answered with an error" />
          </>
        )}
        {c.parts > 0 && (
          <span className="muted" title="Its structuredContent was stored apart: one call, two parts">
            {" "}
            +part
          </span>
        )}
        {c.media.length > 0 && (
          <span className="muted" title={c.media.map((m) => m.mime ?? m.type).join(", ")}>
            {" "}
            +{c.media[0]!.type}
          </span>
        )}
      </td>
      <td className="num" title={`${fmtInt(c.returnedChars)} → ${fmtInt(c.givenChars)} chars; ${tokens}`}>
        {fmtCompact(c.returnedChars)} → {fmtCompact(c.givenChars)}
      </td>
      <td
        className="num"
        title={`${fmtInt(c.reads.count)} reads, ${fmtInt(c.reads.chars)} chars pulled back${c.reads.refused ? `; ${c.reads.refused} refused` : ""}`}
      >
        {c.reads.count || c.reads.refused ? fmtInt(c.reads.count) : ""}
        {c.reads.refused ? <span className="bad-text"> +{c.reads.refused}✕</span> : null}
      </td>
      <td
        title={
          c.received.expanded || c.received.denied
            ? `${fmtInt(c.received.chars)} chars (${fmtInt(c.received.tokens)} tokens) passed by reference; ${fmtInt(c.received.denied)} denied`
            : undefined
        }
      >
        {refText(c)}
      </td>
      <td className="num">{fmtMs(c.durationMs)}</td>
      {scale && (
        <td>
          <WaterfallBar startedAt={c.startedAt} ts={c.ts} durationMs={c.durationMs} upstreamMs={c.upstreamMs} scale={scale} />
        </td>
      )}
    </tr>
  );
}

function MarkRow({ m, open, onToggle, span }: { m: LedgerEvent; open: boolean; onToggle: () => void; span: number }) {
  const readable = m.type === "fetch" || m.type === "recall" || m.type === "expansion";
  return (
    <tr className="mark" data-testid="mark" data-type={m.type}>
      <td title={fmtTime(m.ts)}>
        {readable ? (
          <button
            type="button"
            className="row-toggle"
            aria-expanded={open}
            onClick={onToggle}
            aria-label={`${open ? "Close" : "Open"} ${m.type} at ${fmtClock(m.ts)}`}
          >
            <span aria-hidden="true">{open ? "▾" : "▸"}</span>
            {fmtClock(m.ts)}
          </button>
        ) : (
          <span className="mono">&nbsp;&nbsp;{fmtClock(m.ts)}</span>
        )}
      </td>
      <td colSpan={span - 1} title={markText(m)}>
        {m.data?.error === true && (
          <>
            <Badge value="refused" />{" "}
          </>
        )}
        {markText(m)}
      </td>
    </tr>
  );
}

function MarkDetail({ id }: { id: number }) {
  const d = useOp("events.get", { eventId: id });
  return (
    <div className="call-detail">{d.data ? <ReadList events={[d.data.event]} label="The read" /> : <p className="muted">Loading…</p>}</div>
  );
}

/** Rows for calls and marks as given (a filter is applied by the store, which sends only the marks that belong). */
export function CallRows(p: {
  calls: CallSummary[];
  marks: LedgerEvent[];
  open: ReadonlySet<string>;
  onToggle: (key: string) => void;
  waterfall?: boolean;
}) {
  const { calls, marks, open, onToggle } = p;
  const waterfall = p.waterfall ?? true;
  const scale = waterfall ? scaleOf(calls) : null;
  const span = waterfall ? CALL_COLUMNS : CALL_COLUMNS - 1;
  return (
    <>
      {entriesOf(calls, marks).map((e) => {
        if (e.kind === "mark") {
          const key = `m${e.mark.id}`;
          return (
            <Fragment key={key}>
              <MarkRow m={e.mark} open={open.has(key)} onToggle={() => onToggle(key)} span={span} />
              {open.has(key) && (
                <tr className="detail">
                  <td colSpan={span}>
                    <MarkDetail id={e.mark.id} />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        }
        const key = `c${e.call.id}`;
        return (
          <Fragment key={key}>
            <CallRow c={e.call} open={open.has(key)} onToggle={() => onToggle(key)} scale={scale} />
            {open.has(key) && (
              <tr className="detail">
                <td colSpan={span} id={`call-${e.call.id}`}>
                  <CallDetailPanel callId={e.call.id} />
                </td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </>
  );
}
