/** Shared engine types. Pure types only: the renderer imports this file with `import type`. */

import type { BlobState, EventType, Kind, Label, Outcome, SavingsGroup } from "./vocabulary";

export type { BlobState, EventType, Kind, Label, Outcome, SavingsGroup };

/** Metadata of one stored blob (one row of the index). */
export interface BlobMeta {
  id: string;
  /** Length in UTF-16 code units, as JavaScript and the model-facing text count "chars". */
  chars: number;
  /** Size of the stored file in bytes (UTF-8, or ciphertext when encrypted). */
  bytes: number;
  /** Number of lines (a trailing newline does not start a new line). */
  lines: number;
  kind: Kind;
  /** One-line structural shape, e.g. `array[2000] of object{6 keys}`. */
  shape: string;
  tool: string;
  server: string | null;
  /** The session that first produced this content. */
  sessionId: string;
  label: Label;
  encrypted: boolean;
  pinned: boolean;
  state: BlobState;
  createdAt: number;
  lastAccessAt: number;
  expiresAt: number;
  fetchCount: number;
  tombstonedAt: number | null;
}

/** Savings of one group (a day, tool, upstream server or session), straight from the ledger. */
export interface SavingsRow {
  key: string;
  calls: number;
  rescued: number;
  stubbed: number;
  returnedChars: number;
  returnedTokens: number;
  givenChars: number;
  givenTokens: number;
  pulledChars: number;
  pulledTokens: number;
  netChars: number;
  netTokens: number;
  /** Calls whose token counts are still being computed (not yet in the token sums). */
  pendingTokenCounts: number;
}

/** The summed figures of a savings row (all but its key), in display order. */
export const SAVINGS_FIGURES = [
  "calls",
  "rescued",
  "stubbed",
  "returnedChars",
  "returnedTokens",
  "givenChars",
  "givenTokens",
  "pulledChars",
  "pulledTokens",
  "netChars",
  "netTokens",
  "pendingTokenCounts",
] as const satisfies readonly (keyof SavingsRow)[];

/** A row with nothing in it: a period, group or session with no calls yet. */
export function emptySavings(key: string): SavingsRow {
  const row = { key } as SavingsRow;
  for (const f of SAVINGS_FIGURES) row[f] = 0;
  return row;
}
