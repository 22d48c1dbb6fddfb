/** Savings figures built from the ledger: returned − given − pulled back, in chars and tokens. */
import type { Db } from "../db";
import type { SavingsGroup, SavingsRow } from "../../types";

export type { SavingsGroup, SavingsRow };

const GROUP_SQL: Record<SavingsGroup, string> = {
  total: "'total'",
  session: "session_id",
  tool: "tool",
  server: "COALESCE(server, '(hooks)')",
  day: "strftime('%Y-%m-%d', ts / 1000, 'unixepoch')",
};

/** Savings grouped by session, tool, upstream server or UTC day; `since` limits by time (ms). */
export function savings(db: Db, group: SavingsGroup, since = 0): SavingsRow[] {
  const g = GROUP_SQL[group];
  const calls = db
    .prepare(
      `SELECT ${g} AS key, COUNT(*) AS calls,
         SUM(outcome = 'rescued') AS rescued, SUM(outcome = 'stubbed') AS stubbed,
         SUM(returned_chars) AS returnedChars, COALESCE(SUM(returned_tokens), 0) AS returnedTokens,
         SUM(given_chars) AS givenChars, COALESCE(SUM(given_tokens), 0) AS givenTokens,
         SUM(returned_tokens IS NULL) AS pendingTokenCounts
       FROM calls WHERE ts >= ? GROUP BY key`,
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
      key, calls: 0, rescued: 0, stubbed: 0, returnedChars: 0, returnedTokens: 0, givenChars: 0, givenTokens: 0,
      pulledChars: p.pulledChars, pulledTokens: p.pulledTokens, netChars: -p.pulledChars, netTokens: -p.pulledTokens,
      pendingTokenCounts: 0,
    });
  }
  return rows.sort((a, b) => (group === "day" ? a.key.localeCompare(b.key) : b.netTokens - a.netTokens));
}
