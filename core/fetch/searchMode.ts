/** The search mode: BM25 over the blob's chunks, answered with line spans and centred snippets. */
import { queryTerms } from "../search/queryTerms";
import { BlobScan } from "../search/scanSearch";
import { scratchSearchIndex } from "../search/searchIndex";
import { clip, fail, fitItems, fmtCount, ok, quote } from "./answer";
import type { FetchArgs } from "./fetchArgs";
import type { FetchAnswer, FetchInput } from "./fetchTypes";

/** Longest echo of the query, and of its terms, in an answer. */
const ECHO_CHARS = 80;

export function searchMode(input: FetchInput, args: FetchArgs["search"]): FetchAnswer {
  const terms = queryTerms(args.query);
  if (terms.length === 0) return fail(`The argument query of mode search has no words to search for; give keywords or a question.`);
  // Without the store's index (CLI on a bare blob, tests), a throwaway in-memory index serves.
  const scratch = input.search ? null : scratchSearchIndex();
  try {
    const index = input.search ?? scratch!.index;
    const scan = input.indexLater !== undefined && !index.isIndexed(input.id);
    if (scan) input.indexLater!();
    else if (!index.isIndexed(input.id)) index.indexBlob(input.id, input.content, input.meta.kind);
    const hits = scan
      ? (input.scan?.() ?? new BlobScan(input.content, input.meta.kind)).search(input.id, args.query, args.top_k)
      : index.search(args.query, { blobId: input.id, topK: args.top_k });
    // The model knows what it asked: the query and its terms are echoed short, so they never take the answer's room.
    const termList = clip(terms.join(", "), ECHO_CHARS);
    if (hits.length === 0) {
      return ok(`No part of ${input.id} matches any of: ${termList}; try other words, or grep for an exact pattern.`, 0);
    }
    const how = scan ? "by BM25 over a scan of the text (its index is being built)" : "by BM25";
    const header = `search ${quote(args.query, ECHO_CHARS)} in ${input.id}: ${hits.length} best chunk${hits.length === 1 ? "" : "s"} ${how} (terms: ${termList}); lines are 0-based`;
    const items = hits.map(
      (h, i) =>
        `${i + 1}. lines ${h.startLine}–${h.endLine} (chars ${h.startChar}–${h.endChar - 1}), score ${h.score.toPrecision(3)}: ${h.snippet}`,
    );
    const first = hits[0]!;
    const readHint =
      first.startLine === first.endLine
        ? `range start_char=${first.startChar} count_chars=${first.endChar - first.startChar}`
        : `range start=${first.startLine} count=${first.endLine - first.startLine + 1}`;
    const fit = fitItems(header, items, input.limits.maxChars, (shown) =>
      shown < items.length
        ? `[cut: ${shown} of ${items.length} hits fit in ${fmtCount(input.limits.maxChars)} chars; ask for a smaller top_k or read a hit with range]`
        : `Read a whole chunk with ${readHint}.`,
    );
    return ok(fit.text, fit.bodyChars, fit.shown < items.length);
  } finally {
    scratch?.close();
  }
}
