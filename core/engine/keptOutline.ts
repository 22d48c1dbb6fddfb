/**
 * The outline of a blob, built once and kept beside it (BlobAux), served as kept on the next
 * calls: a 50 MB JSON's outline takes about half a second of CPU to build. Kept per answer cap and kind.
 */
import { describeError } from "../errors";
import type { FetchAnswer } from "../fetch/fetchTypes";
import type { BlobMeta } from "../types";
import type { EngineParts } from "./parts";

/** Bumped when the outline's text changes, so outlines kept by an older version are rebuilt. */
const OUTLINE_VERSION = 1;

/** The outline kept beside the blob for these limits, when there is one. */
export function keptOutline(p: EngineParts, meta: BlobMeta): FetchAnswer | null {
  const data = p.store.aux.get(meta.id, "outline");
  if (!data) return null;
  try {
    const k = JSON.parse(data.toString("utf8")) as { v?: number; maxChars?: number; kind?: string; answer?: FetchAnswer };
    if (k.v !== OUTLINE_VERSION || k.maxChars !== p.config.fetch.maxChars || k.kind !== meta.kind || typeof k.answer?.text !== "string")
      return null;
    return { text: k.answer.text, truncated: !!k.answer.truncated, isError: false, servedChars: Number(k.answer.servedChars) || 0 };
  } catch {
    return null; // damaged: built again
  }
}

/** Keeps an outline beside its blob (only blobs whose exact text is the model's view keep one). Never fails the fetch. */
export function keepOutline(p: EngineParts, meta: BlobMeta, answer: FetchAnswer): void {
  try {
    const k = { v: OUTLINE_VERSION, maxChars: p.config.fetch.maxChars, kind: meta.kind, answer };
    p.store.aux.put(meta.id, "outline", Buffer.from(JSON.stringify(k), "utf8"));
  } catch (err) {
    p.logger.error("keeping an outline failed", { id: meta.id, error: describeError(err) });
  }
}
