/** Small builders shared by the modes, so every answer is shaped (and capped) the same way. */
import type { FetchAnswer } from "./fetchTypes";

/** A successful answer. */
export function ok(text: string, servedChars: number, truncated = false): FetchAnswer {
  return { text, truncated, isError: false, servedChars };
}

/** A one-sentence error answer. */
export function fail(sentence: string): FetchAnswer {
  return { text: sentence, truncated: false, isError: true, servedChars: 0 };
}

/**
 * One formatter for every count: `toLocaleString` builds a new one per call (about 20 µs, 200 a
 * grep answer). Made on first use: building it loads ICU's locale data (about 6 MB), which an idle
 * `spillway mcp` (it reads this module for its tool definitions) must not hold.
 */
let countFormat: Intl.NumberFormat | null = null;

/** `24003` → `24,003`: counts the model reads, not values it copies into arguments. */
export function fmtCount(n: number): string {
  return (countFormat ??= new Intl.NumberFormat("en-US")).format(n);
}

/** `1 table`, `3 tables`. */
export function plural(n: number, noun: string): string {
  return `${fmtCount(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** A statistic as printed in outlines: integers as is, others to 4 decimals (6 significant digits below 1). */
export function fmtStat(x: number): string {
  if (!Number.isFinite(x) || Number.isInteger(x)) return String(x);
  return String(Math.abs(x) >= 1 ? Number(x.toFixed(4)) : Number(x.toPrecision(6)));
}

/** `s` cut to `max` chars with a marker saying how much was left out. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  return s.slice(0, Math.max(0, max - 1)) + "…";
}

/** Quotes a user value inside a sentence, clipped so an error stays one short line. */
export function quote(s: string, max = 80): string {
  return JSON.stringify(clip(s, max));
}

/**
 * Fits `header`, as many `items` as possible and a footer within `maxChars`. `footer(shown)`
 * is asked for the footer given how many items made it, so the note can say where to go on.
 * When not even one item fits, the first is cut by chars (the footer should then say so).
 */
export function fitItems(
  header: string,
  items: readonly string[],
  maxChars: number,
  footer: (shown: number, cutItem: boolean) => string,
): { text: string; shown: number; cutItem: boolean; bodyChars: number } {
  let used = header.length;
  let shown = 0;
  for (; shown < items.length; shown++) {
    const nextUsed = used + 1 + items[shown]!.length;
    const foot = footer(shown + 1, false);
    if (nextUsed + (foot ? 1 + foot.length : 0) > maxChars) break;
    used = nextUsed;
  }
  if (shown === 0 && items.length > 0) {
    const foot = footer(1, true);
    const room = maxChars - header.length - 2 - foot.length;
    if (room > 20) {
      const first = clip(items[0]!, room);
      return { text: [header, first, foot].filter(Boolean).join("\n"), shown: 1, cutItem: true, bodyChars: first.length };
    }
  }
  const body = items.slice(0, shown);
  const foot = footer(shown, false);
  const rest = [...body, ...(foot ? [foot] : [])];
  // Only a header too long for the cap on its own (its echo of the model's input, at the smallest
  // caps) can leave the answer over it; the header gives way then, not the cap.
  const over = [header, ...rest].join("\n").length - maxChars;
  const text = [over > 0 ? clip(header, header.length - over) : header, ...rest].join("\n");
  return { text, shown, cutItem: false, bodyChars: body.reduce((s, l) => s + l.length, 0) };
}
