/**
 * Savings per UTC hour over a recent window, derived from the ledger's own savings function:
 * a bucket is "everything since the hour's start" minus "everything since the next hour's
 * start", so hourly figures add up to the ledger's totals by construction.
 */
import { emptySavings, SAVINGS_FIGURES } from "../../types";
import type { SavingsFigures } from "../api/dto";

const HOUR = 3_600_000;
/** `2026-03-14T09`: the UTC hour a bucket starts. */
export function hourKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13);
}

export function hourlySavings(totalSince: (since: number) => SavingsFigures | undefined, now: number, hours = 48): SavingsFigures[] {
  const last = Math.floor(now / HOUR) * HOUR;
  const starts = Array.from({ length: hours }, (_, i) => last - (hours - 1 - i) * HOUR);
  const cumulative = starts.map((s) => totalSince(s) ?? emptySavings(""));
  return starts.map((s, i) => {
    const here = cumulative[i]!;
    const next = cumulative[i + 1] ?? emptySavings("");
    const out = emptySavings(hourKey(s));
    for (const f of SAVINGS_FIGURES) out[f] = here[f] - next[f];
    return out;
  });
}
