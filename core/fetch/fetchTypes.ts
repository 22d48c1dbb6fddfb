/** Types shared by the fetch modes (re-exported from fetchModes.ts, the public entry). */
import type { BlobScan } from "../search/scanSearch";
import type { SearchIndex } from "../search/searchIndex";
import type { TextDoc } from "../text/textDoc";
import type { BlobMeta } from "../types";

import { FETCH_MODES, type FetchMode } from "../vocabulary";

export { FETCH_MODES, type FetchMode };

/** Every fetch mode, in the order the model is told about them. */

/** Answer size caps in chars (config `fetch.maxChars` and `fetch.fullMaxChars`). */
export interface FetchLimits {
  maxChars: number;
  fullMaxChars: number;
}

/** What the engine hands a mode: the resolved (already authorised) blob and the raw arguments. */
export interface FetchInput {
  id: string;
  /** The model's view of the blob. The engine may load it only when a mode reads it (a getter). */
  content: string;
  /** The same text read a window at a time, when the store can: range and grep then read only what they serve. */
  doc?: TextDoc;
  meta: BlobMeta;
  args: Record<string, unknown>;
  limits: FetchLimits;
  /** The store's search index; without one, search builds a throwaway in-memory index. */
  search?: SearchIndex;
  /**
   * Set when the blob is big and not yet in the search index: search then answers from a scan
   * of the text and calls this to have the blob indexed in the background.
   */
  indexLater?: () => void;
  /** With indexLater: the scan to search (kept by the engine for the next searches); else one over `content`. */
  scan?: () => BlobScan;
  /** true when full must be withheld (credential blob in mask mode) */
  withholdFull?: boolean;
}

/** A model-facing answer. */
export interface FetchAnswer {
  text: string;
  /** true when the answer was cut to fit a cap (the text then says how to continue). */
  truncated: boolean;
  isError: boolean;
  /** chars of blob content served, for savings */
  servedChars: number;
}
