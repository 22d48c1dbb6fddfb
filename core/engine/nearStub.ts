/** The engine's side of near-duplicate stubs: reads the earlier result and asks core/dedup for the stub. */
import { renderNearStub, type NearBase } from "../dedup/nearDup";
import { describeError } from "../errors";
import { excerptBudget } from "../rescue/excerpt";
import { renderHandle } from "../rescue/handle";
import type { BlobMeta } from "../types";
import type { EngineParts } from "./parts";

/** The length a handle for this result would have at most: its frame plus the excerpt budget. */
function handleSize(tool: string, meta: BlobMeta, chars: number, p: EngineParts): number {
  const frame = renderHandle({
    id: meta.id,
    tool,
    chars,
    lines: meta.lines,
    kind: meta.kind,
    shape: meta.shape,
    excerpt: { text: "", truncated: true },
    ...p.config.fetch,
  });
  return frame.length + excerptBudget(chars, p.config.excerpt);
}

/**
 * The stub for a stored result that nearly repeats `base`, or null. Never throws: a base that
 * cannot be read means the result is delivered as it would have been without this step.
 */
export function nearDuplicateStub(p: EngineParts, tool: string, base: NearBase, meta: BlobMeta, text: string): string | null {
  try {
    // The stub points at the earlier copy: only an intact one (as for exact stubs).
    const baseMeta = p.store.intact(base.baseId) ? p.store.meta(base.baseId) : null;
    if (!baseMeta) return null;
    // Lines added or removed are changes too: sizes far apart cannot pass, so skip the read.
    const share = p.config.dedup.nearMaxChangedShare;
    if (Math.abs(baseMeta.lines - meta.lines) > share * (baseMeta.lines + meta.lines) + 2) return null;
    const baseText = p.store.read(base.baseId);
    if (baseText === null) return null;
    return renderNearStub({
      tool,
      baseId: base.baseId,
      baseText: p.views.modelBlob(base.baseId, baseText, baseMeta.tool),
      id: meta.id,
      text: p.views.modelBlob(meta.id, text, tool),
      maxChangedShare: share,
      maxChars: handleSize(tool, meta, text.length, p),
    });
  } catch (err) {
    p.logger.warn("near-duplicate check failed; delivering the result as usual", { tool, base: base.baseId, error: describeError(err) });
    return null;
  }
}
