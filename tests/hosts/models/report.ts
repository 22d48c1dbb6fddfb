/** The per-request prompt table the host tests print: the same policy with and without Spillway. */
import type { LoggedRequest } from "./server";

const ORDER = ["discover", "big", "fetch", "repeat", "recall", "deliver", "final"];
const n = (v: number | undefined) => (v === undefined ? "-" : v.toLocaleString("en-US"));

function byStep(requests: LoggedRequest[]): Map<string, LoggedRequest> {
  const m = new Map<string, LoggedRequest>();
  for (const r of requests) if (r.main && r.action.type !== "side") m.set(r.action.step, r);
  return m;
}

/**
 * One row per policy step: what the host sent when the model took that step (prompt chars,
 * o200k tokens, chars of tool results in it), with Spillway and without.
 */
export function promptTable(title: string, withSpillway: LoggedRequest[], without: LoggedRequest[]): string {
  const a = byStep(withSpillway);
  const b = byStep(without);
  const rows: string[][] = [["request (model's next step)", "chars", "tokens", "results", "chars w/o", "tokens w/o", "results w/o"]];
  for (const step of ORDER) {
    const x = a.get(step);
    const y = b.get(step);
    if (!x && !y) continue;
    rows.push([step, n(x?.promptChars), n(x?.promptTokens), n(x?.resultChars), n(y?.promptChars), n(y?.promptTokens), n(y?.resultChars)]);
  }
  const sum = (rs: LoggedRequest[], f: (r: LoggedRequest) => number) => rs.filter((r) => r.main).reduce((s, r) => s + f(r), 0);
  rows.push([
    "all main requests",
    n(sum(withSpillway, (r) => r.promptChars)),
    n(sum(withSpillway, (r) => r.promptTokens)),
    "",
    n(sum(without, (r) => r.promptChars)),
    n(sum(without, (r) => r.promptTokens)),
    "",
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => "| " + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ") + " |";
  const sides = (rs: LoggedRequest[]) => rs.filter((r) => !r.main).length;
  return [
    title,
    line(rows[0]!),
    "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|",
    ...rows.slice(1).map(line),
    `side requests (titles, checks) not in the table: ${sides(withSpillway)} with, ${sides(without)} without`,
  ].join("\n");
}
