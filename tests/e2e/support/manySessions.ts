/**
 * 1,500 sessions in a real store's index, each with a few calls, inserted in one transaction:
 * enough to page past the old 1,000-row limit and to check the server's sort.
 */
import type { Db } from "../../../core/store/db";

export const MANY_SESSIONS = 1_500;
const CLIENTS = ["claude-code", "codex-mcp-client 0.171.0", "cursor-vscode 1.2.0", "gemini-cli-mcp-client 0.61.0", "opencode 1.18.33"];

/** Session `i`: a UUID-shaped id whose first group is its index, so a test can name it. */
export const sessionIdOf = (i: number) =>
  `${String(i).padStart(8, "0")}-5e55-4a11-9c0d-${((i * 2654435761) >>> 0).toString(16).padStart(12, "0")}`;
export const clientOf = (i: number) => CLIENTS[i % CLIENTS.length]!;
/** Calls of session `i` (1 to 7), so sorting by calls has a known top. */
export const callsOf = (i: number) => 1 + (i % 7);

export function insertManySessions(db: Db, now: number, n = MANY_SESSIONS): void {
  const session = db.prepare("INSERT INTO sessions (id, client, created_at, last_seen_at, generation, turn) VALUES (?, ?, ?, ?, 0, 0)");
  const call = db.prepare(
    `INSERT INTO calls (session_id, ts, tool, server, args_json, outcome, blob_id, is_error, returned_chars, returned_tokens, given_chars, given_tokens, raw_text, given_text, duration_ms)
     VALUES (?, ?, ?, 'files', '{}', ?, NULL, 0, ?, ?, ?, ?, NULL, NULL, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = sessionIdOf(i);
      const created = now - (n - i) * 60_000;
      session.run(id, clientOf(i), created, created + 30_000);
      for (let k = 0; k < callsOf(i); k++) {
        const returned = 2_000 + ((i * 131 + k * 17) % 40_000);
        const rescued = returned > 12_000;
        const given = rescued ? 1_500 : returned;
        call.run(
          id,
          created + k * 1_000,
          k % 2 ? "read_text_file" : "list_directory",
          rescued ? "rescued" : "passthrough",
          returned,
          Math.round(returned / 4),
          given,
          Math.round(given / 4),
          20 + k,
        );
      }
    }
  })();
}
