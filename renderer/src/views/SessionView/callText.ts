/** The ledger's events in words, as the session and blob views list them. Pure, so it is tested directly. */
import type { LedgerEvent } from "../../../../core/inspector/api/contract";
import { fmtInt, fmtTime } from "../../format/format";

const str = (v: unknown) => (typeof v === "string" ? v : "");

function argsText(args: unknown): string {
  return args && typeof args === "object" && Object.keys(args).length ? ` ${JSON.stringify(args)}` : "";
}

/** Who made a read: the session, or the operator (inspector, CLI), whose reads are not the model's. */
export function readerOf(e: LedgerEvent): string {
  return e.sessionId ? "model" : `operator (${str(e.data?.by) || "inspector"})`;
}

/** One read or expansion: `rescuer_fetch grep {"pattern":"ERROR"} → 812 chars`, `… refused`. */
export function readText(e: LedgerEvent): string {
  const d = e.data ?? {};
  const refused = d.error === true || d.refused === true;
  if (e.type === "fetch") {
    const what = d.mode === "resource" ? "resources/read" : `rescuer_fetch ${str(d.mode)}${argsText(d.args)}`;
    return `${what} → ${refused ? "refused" : `${fmtInt(e.chars)} chars${d.truncated ? " (cut at the cap)" : ""}`}`;
  }
  if (e.type === "recall") return `recall_result → ${refused ? "refused" : `${fmtInt(e.chars)} chars`}`;
  if (e.type === "expansion") {
    const into = str(d.destination) || e.tool || "?";
    return d.outcome === "expanded"
      ? `spill:${e.blobId} passed into ${into}, ${fmtInt(e.chars)} chars`
      : `spill:${e.blobId} denied for ${into}${d.reason ? `: ${str(d.reason)}` : ""}`;
  }
  return `${e.type}${e.blobId ? ` ${e.blobId}` : ""}`;
}

/** A session mark between calls: a turn with its prompt, a compaction, a read of an id no call returned. */
export function markText(e: LedgerEvent): string {
  const d = e.data ?? {};
  if (e.type === "turn") return `Turn ${fmtInt(Number(d.turn ?? 0))}${d.prompt ? `: “${str(d.prompt)}”` : " (the user sent a prompt)"}`;
  if (e.type === "import")
    return `Imported from ${str(d.agent) || "an agent"}'s history: ${fmtInt(Number(d.added ?? 0))} new calls, ${fmtInt(Number(d.kept ?? 0))} already here`;
  if (e.type === "compaction")
    return `Context compacted (generation ${fmtInt(Number(d.generation ?? 0))}): stored results are delivered in full once more`;
  return readText(e);
}

/**
 * Why Spillway delivered a result whole (or gave its handle again) rather than a stub, or stubbed
 * it unusually, when it recorded a reason (CallSummary.reason). `outcome`: the call's.
 */
export function reasonText(reason: string, outcome: string): string {
  const again = outcome === "rescued" ? "Its handle was given again, not a stub" : "Delivered in full again, not as a stub";
  switch (reason) {
    case "no_spillway_tools":
      return "Delivered whole: no Spillway MCP server served this session, so the model had no tool to read a handle or a stub.";
    case "new_generation":
      return `${again}: the agent compacted its context since this session last got this result.`;
    case "streak_guard":
      return `${again}: the same call had been answered with a stub too many times in a row (dedup.maxStubStreak).`;
    case "near_duplicate":
      return "Stub of the changed lines: an earlier result of this session differs from this one in a few lines.";
    case "echo":
      return "Stub: the result repeats an argument the model itself wrote.";
    default:
      return reason.startsWith("stored copy was ") ? `Stored afresh: the ${reason}.` : reason;
  }
}

/** Why a call's (or a read's) detail is gone: removed as old, when, and how old it was then. */
export function removedText(removedAt: number, ts: number, what: "call" | "read"): string {
  const days = Math.max(0, Math.floor((removedAt - ts) / 86_400_000));
  return `Removed on ${fmtTime(removedAt)}, ${fmtInt(days)} day${days === 1 ? "" : "s"} after the ${what}, with the rest of its old detail (store.detailTtlDays).`;
}
