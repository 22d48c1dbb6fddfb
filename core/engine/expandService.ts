/** Pass-by-reference on the argument path: `spill:<id>` tokens expanded under the session's policy. */
import { expandArguments as expand, type Expansion } from "../passref/expand";
import { describeError } from "../errors";
import { resolveBlob } from "./fetchService";
import type { EngineParts } from "./parts";

export interface ExpandInput {
  sessionId: string;
  tool: string;
  server?: string | null;
  args: unknown;
}

export interface ExpandResult {
  args: unknown;
  expansions: Expansion[];
  changed: boolean;
  /** A sentence for the model when a token was denied (to append to the tool's result); else null. */
  note: string | null;
  /** The ledger events recording each expansion, for the call that receives them. */
  eventIds: number[];
}

export function expandToolArguments(p: EngineParts, input: ExpandInput): ExpandResult {
  try {
    const result = expand(
      { tool: input.tool, args: input.args },
      (id) => {
        const r = resolveBlob(p, input.sessionId, id);
        if (!r.ok) return { ok: false, reason: r.message };
        return { ok: true, blob: { id, content: r.text, label: r.meta.label, tool: r.meta.tool } };
      },
      p.config.passref,
    );
    const now = p.store.now;
    const eventIds: number[] = [];
    const notes: string[] = [];
    for (const e of result.expansions) {
      const note = e.outcome === "denied" ? `[spillway: ${e.token} was not expanded for ${input.tool}: ${e.reason ?? "denied"}]` : null;
      if (note) notes.push(note);
      eventIds.push(
        p.ledger.insertEvent({
          ts: now,
          type: "expansion",
          sessionId: input.sessionId,
          blobId: e.id,
          tool: input.tool,
          server: input.server ?? null,
          chars: e.outcome === "expanded" ? e.chars : 0,
          data: { outcome: e.outcome, path: e.path, reason: e.reason ?? null, destination: input.tool },
          // What the model was told about a denied token; an expanded one gave the tool the blob itself.
          text: note,
        }),
      );
      if (e.outcome === "expanded") p.store.touchFetch(e.id);
    }
    const denied = result.expansions.filter((e) => e.outcome === "denied");
    if (result.expansions.length > 0) {
      p.emit({
        type: "expansion",
        sessionId: input.sessionId,
        tool: input.tool,
        expanded: result.expansions.length - denied.length,
        denied: denied.length,
      });
    }
    const note = notes.length ? notes.join("\n") : null;
    return { args: result.args, expansions: result.expansions, changed: result.changed, note, eventIds };
  } catch (err) {
    // Fail open: the tool gets its arguments exactly as the model wrote them.
    p.logger.error("argument expansion failed; forwarding the arguments unchanged", { tool: input.tool, error: describeError(err) });
    return { args: input.args, expansions: [], changed: false, note: null, eventIds: [] };
  }
}
