/**
 * Why a blob carries its sensitivity label, read back from the ledger's "label" events (written
 * with the reasons labelResult gave). Only the sources that reach the label count: a credential
 * set by the call's arguments is not explained by the personal data its content also holds.
 */
import type { LabelOrigin, LabelSource } from "../api/dto";
import type { LedgerEvent } from "../../store/read/readModel";
import { LABELS, type Label } from "../../vocabulary";

/** The source a reason of labelResult names, and the label that source alone gives. */
export function classifyReason(reason: string): { source: LabelSource; label: Label } | null {
  const tool = /^tool .+ is configured as (\w+)$/.exec(reason);
  if (tool) return (LABELS as readonly string[]).includes(tool[1]!) ? { source: "tool", label: tool[1] as Label } : null;
  if (reason.startsWith("arguments hold ")) return { source: "arguments", label: "credential" };
  if (reason.startsWith("content holds personal data")) return { source: "content", label: "personal" };
  if (reason.startsWith("content holds ")) return { source: "content", label: "credential" };
  return null;
}

/**
 * The origin of `label` from a blob's events (oldest first): the latest label event that set it.
 * Null for a public blob, or when no such event is recorded (older stores, or beyond the events read).
 */
export function labelOrigin(label: Label, events: readonly LedgerEvent[]): LabelOrigin | null {
  if (label === "public") return null;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type !== "label" || e.data?.to !== label) continue;
    const all = Array.isArray(e.data.reasons) ? e.data.reasons.filter((r): r is string => typeof r === "string") : [];
    const reasons: string[] = [];
    const sources: LabelSource[] = [];
    for (const r of all) {
      const c = classifyReason(r);
      // A reason of unknown wording is kept: it is still the ledger's word on this label.
      if (c && c.label !== label) continue;
      reasons.push(r);
      if (c && !sources.includes(c.source)) sources.push(c.source);
    }
    return { label, sources, reasons, at: e.ts };
  }
  return null;
}
