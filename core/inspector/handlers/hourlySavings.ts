/**
 * Savings per UTC hour over a recent window, derived from the ledger's own savings function:
 * a bucket is "everything since the hour's start" minus "everything since the next hour's
 * start", so hourly figures add up to the ledger's totals by construction.
 */
import type { SavingsFigures } from "../api/dto";

const HOUR = 3_600_000;
const FIELDS = [
  "calls",
  "rescued",
  "stubbed",
  "returnedChars",
  "returnedTokens",
  "givenChars",
  "givenTokens",
  "pulledChars",
  "pulledTokens",
  "netChars",
  "netTokens",
  "pendingTokenCounts",
  "estimatedTokenCounts",
] as const;

const ZERO = (key: string): SavingsFigures => ({
  key,
  calls: 0,
  rescued: 0,
  stubbed: 0,
  returnedChars: 0,
  returnedTokens: 0,
  givenChars: 0,
  givenTokens: 0,
  pulledChars: 0,
  pulledTokens: 0,
  netChars: 0,
  netTokens: 0,
  pendingTokenCounts: 0,
  estimatedTokenCounts: 0,
});

/** `2026-03-14T09`: the UTC hour a bucket starts. */
export function hourKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13);
}

export function hourlySavings(totalSince: (since: number) => SavingsFigures | undefined, now: number, hours = 48): SavingsFigures[] {
  const last = Math.floor(now / HOUR) * HOUR;
  const starts = Array.from({ length: hours }, (_, i) => last - (hours - 1 - i) * HOUR);
  const cumulative = starts.map((s) => totalSince(s) ?? ZERO(""));
  return starts.map((s, i) => {
    const here = cumulative[i]!;
    const next = cumulative[i + 1] ?? ZERO("");
    const out = ZERO(hourKey(s));
    for (const f of FIELDS) out[f] = here[f] - next[f];
    return out;
  });
}
