/** A replay report as Markdown (summary, per tool, per session), CSV (one row per call) or JSON. */
import type { ReplayReport } from "./report";

const n = (v: number) => Math.round(v).toLocaleString("en-US");
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
/** Table cells: one line, pipes escaped. */
const cell = (s: string) => s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");

function mdTable(rows: string[][]): string {
  const [head, ...body] = rows;
  return [head!, head!.map(() => "---"), ...body].map((r) => `| ${r.map(cell).join(" | ")} |`).join("\n");
}

export function replayMarkdown(r: ReplayReport): string {
  const t = r.totals;
  const names = r.policies.map((p) => p.name);
  const out: string[] = [
    "# Spillway replay",
    "",
    `${n(t.sessions)} imported sessions, ${n(t.requests)} requests, ${n(t.calls)} tool calls; prompt tokens counted with ${r.tokenizer}, ` +
      "the whole conversation re-sent on every request (as APIs bill it, before any cache discount)." +
      (t.contentGone ? ` ${n(t.contentGone)} calls no longer have their content in the store and count as they happened.` : ""),
    "",
    mdTable([
      ["", "prompt tokens", "saved", "handles", "stubs", "near-dup stubs", "passed through"],
      ["as it happened", n(t.asHappened), "", "", "", "", ""],
      ...t.policies.map((p) => [
        p.name,
        n(p.promptTokens),
        `${n(p.saved)} (${pct(p.savedShare)})`,
        n(p.handles),
        n(p.stubs),
        n(p.nearStubs),
        n(p.passthrough),
      ]),
    ]),
    "",
    "## Where the savings come from",
    "",
    mdTable([
      ["tool", "calls", "billed as it happened", ...names.map((x) => `saved by ${x}`)],
      ...r.tools.map((x) => [x.tool, n(x.calls), n(x.asHappened), ...x.policies.map((p) => n(p.saved))]),
    ]),
    "",
    "## Sessions",
    "",
    mdTable([
      ["session", "agent", "project", "requests", "calls", "as it happened", ...names],
      ...r.sessions.map((s) => [
        s.title ?? s.id,
        s.agent,
        s.project ?? "",
        n(s.requests.length),
        n(s.calls.length),
        n(s.promptTokens.asHappened),
        ...s.promptTokens.policies.map(n),
      ]),
    ]),
    "",
  ];
  return out.join("\n");
}

function csvField(v: string | number | null): string {
  const s = v === null ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per call: what it cost as it happened and under each policy, billed over the requests that carried it. */
export function replayCsv(r: ReplayReport): string {
  const head = [
    "session",
    "agent",
    "call_id",
    "time",
    "tool",
    "request",
    "carried_by_requests",
    "result_chars",
    "agent_cut",
    "tokens_as_happened",
  ];
  for (const p of r.policies) head.push(`${p.name} action`, `${p.name} tokens`, `${p.name} billed_saved`);
  const rows: (string | number | null)[][] = [head];
  for (const s of r.sessions) {
    for (const c of s.calls) {
      const row: (string | number | null)[] = [
        s.id,
        s.agent,
        c.id,
        new Date(c.ts).toISOString(),
        c.tool,
        c.requestSeq,
        c.carried,
        c.resultChars,
        c.hostCut,
        c.asHappenedTokens,
      ];
      for (const p of c.policies) row.push(p.action, p.tokens, (c.asHappenedTokens - p.tokens) * c.carried);
      rows.push(row);
    }
  }
  return rows.map((x) => x.map(csvField).join(",")).join("\n") + "\n";
}

export function replayJson(r: ReplayReport): string {
  return JSON.stringify(r, null, 2);
}
