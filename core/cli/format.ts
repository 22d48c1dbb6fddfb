/** Small formatting helpers for CLI output. */
import { ESTIMATE_MARK } from "../vocabulary";

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A token figure, marked ≈ when it holds counts estimated from a sample (big results). */
export function fmtTokens(n: number, estimated: boolean | number): string {
  return `${estimated ? ESTIMATE_MARK : ""}${fmtInt(n)}`;
}

/** "1 session", "2 sessions": a count with its noun. */
export function fmtCountOf(n: number, noun: string): string {
  return `${fmtInt(n)} ${noun}${n === 1 ? "" : "s"}`;
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** Left-aligned columns. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}
