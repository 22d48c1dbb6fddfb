/** Picks the figures a chart shows from savings rows, in tokens or chars. Pure. */
import type { SavingsFigures } from "../../../../core/inspector/api/contract";

export type Unit = "tokens" | "chars";

export interface Bar {
  key: string;
  returned: number;
  given: number;
  pulled: number;
  net: number;
}

export function toBars(rows: readonly SavingsFigures[], unit: Unit): Bar[] {
  return rows.map((r) =>
    unit === "tokens"
      ? { key: r.key, returned: r.returnedTokens, given: r.givenTokens, pulled: r.pulledTokens, net: r.netTokens }
      : { key: r.key, returned: r.returnedChars, given: r.givenChars, pulled: r.pulledChars, net: r.netChars },
  );
}

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}
