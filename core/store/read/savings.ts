/** Savings figures built from the ledger: returned − given − pulled back, in chars and tokens, of live calls (imported history is replayed instead). */
import type { Db } from "../db";
import { emptySavings, type SavingsGroup, type SavingsRow } from "../../types";
import type { ByReference } from "./readModel";
import { CALL_COUNTS } from "./sessionQueries";

export type { SavingsGroup, SavingsRow };

const GROUP_SQL: Record<SavingsGroup, string> = {
  total: "'total'",
  session: "session_id",
  tool: "tool",
  server: "COALESCE(server, '(hooks)')",
  day: "strftime('%Y-%m-%d', ts / 1000, 'unixepoch')",
  // `2026-03-14T09`, as the inspector's hourKey writes it.
  hour: "strftime('%Y-%m-%dT%H', ts / 1000, 'unixepoch')",
};

/**
 * Savings grouped by session, tool, upstream server, UTC day or UTC hour; `since` limits by time (ms).
 * Read from calls_figures alone (it holds every column used, in time order): grouping by session
 * would otherwise walk calls_session and read each row, handle and all.
 */
export function savings(db: Db, group: SavingsGroup, since = 0): SavingsRow[] {
  const g = GROUP_SQL[group];
  const calls = db
    .prepare(
      `SELECT ${g} AS key, SUM(part_of IS NULL) AS calls, ${CALL_COUNTS},
         SUM(returned_chars) AS returnedChars, COALESCE(SUM(returned_tokens), 0) AS returnedTokens,
         SUM(given_chars) AS givenChars, COALESCE(SUM(given_tokens), 0) AS givenTokens,
         SUM(returned_tokens IS NULL) AS pendingTokenCounts, SUM(tokens_estimated) AS estimatedTokenCounts
       FROM calls INDEXED BY calls_figures WHERE ts >= ? AND imported = 0 GROUP BY key`,
    )
    .all(since) as Omit<SavingsRow, "pulledChars" | "pulledTokens" | "netChars" | "netTokens">[];
  const pulled = db
    .prepare(
      `SELECT ${g} AS key, SUM(chars) AS pulledChars, COALESCE(SUM(tokens), 0) AS pulledTokens
       FROM events WHERE type IN ('fetch', 'recall') AND session_id IS NOT NULL AND ts >= ? GROUP BY key`,
    )
    .all(since) as { key: string; pulledChars: number; pulledTokens: number }[];
  const byKey = new Map(pulled.map((r) => [r.key, r]));
  const rows: SavingsRow[] = calls.map((c) => {
    const p = byKey.get(c.key) ?? { pulledChars: 0, pulledTokens: 0 };
    byKey.delete(c.key);
    return {
      ...c,
      pulledChars: p.pulledChars,
      pulledTokens: p.pulledTokens,
      netChars: c.returnedChars - c.givenChars - p.pulledChars,
      netTokens: c.returnedTokens - c.givenTokens - p.pulledTokens,
    };
  });
  // Fetches in a period (or session) with no calls still count against the savings.
  for (const [key, p] of byKey) {
    rows.push({
      ...emptySavings(key),
      pulledChars: p.pulledChars,
      pulledTokens: p.pulledTokens,
      netChars: 0 - p.pulledChars,
      netTokens: 0 - p.pulledTokens,
    });
  }
  return rows.sort((a, b) => (group === "day" || group === "hour" ? a.key.localeCompare(b.key) : b.netTokens - a.netTokens));
}

/** Everything passed by `spill:` reference since `since`: tokens expanded and denied, and the chars (and tokens) that flowed. */
export function referenceTotals(db: Db, since = 0): ByReference {
  return db
    .prepare(
      `SELECT COALESCE(SUM(o = 'expanded'), 0) AS expanded, COALESCE(SUM(o = 'denied'), 0) AS denied,
         COALESCE(SUM(CASE WHEN o = 'expanded' THEN chars END), 0) AS chars,
         COALESCE(SUM(CASE WHEN o = 'expanded' THEN (SELECT p.returned_tokens FROM calls p WHERE p.blob_id = x.blob_id
           AND p.returned_chars = x.chars AND p.returned_tokens IS NOT NULL LIMIT 1) END), 0) AS tokens
       FROM (SELECT blob_id, chars, json_extract(data_json, '$.outcome') AS o FROM events WHERE type = 'expansion' AND ts >= ?) x`,
    )
    .get(since) as ByReference;
}

/** Calls that failed or answered with an error, and reads by sessions that were refused, since `since`. */
export function failureTotals(db: Db, since = 0): { calls: number; reads: number } {
  const calls = (
    db.prepare("SELECT COALESCE(SUM(is_error AND part_of IS NULL), 0) AS n FROM calls WHERE ts >= ? AND imported = 0").get(since) as {
      n: number;
    }
  ).n;
  const reads = (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM events WHERE type IN ('fetch', 'recall') AND session_id IS NOT NULL AND ts >= ?
         AND json_extract(data_json, '$.error') = 1`,
      )
      .get(since) as { n: number }
  ).n;
  return { calls, reads };
}
