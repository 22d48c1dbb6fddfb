/** The stat mode: the blob's metadata as the model needs it to plan further fetches. */
import { fmtCount, ok } from "./answer";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

const iso = (t: number | null) => (t === null || !Number.isFinite(t) ? "never" : new Date(t).toISOString());

export function statMode(input: FetchInput): FetchAnswer {
  const m = input.meta;
  const lines = [
    `Blob ${input.id}`,
    `size: ${fmtCount(m.chars)} chars, ${fmtCount(m.bytes)} bytes${m.encrypted ? " (encrypted at rest)" : ""}`,
    `lines: ${fmtCount(m.lines)} (numbered 0–${Math.max(0, m.lines - 1)})`,
    `kind: ${m.kind}${m.shape ? `; shape: ${m.shape}` : ""}`,
    `tool: ${m.tool}; source: ${m.server ?? "direct (no upstream server)"}`,
    `stored: ${iso(m.createdAt)}; expires: ${m.pinned ? "never (pinned)" : iso(m.expiresAt)}`,
    `label: ${m.label}; state: ${m.state}; fetched ${fmtCount(m.fetchCount)} time${m.fetchCount === 1 ? "" : "s"}`,
  ];
  return ok(lines.join("\n"), 0);
}
