/**
 * Read-only access to OpenCode's own SQLite store (`opencode.db`): the one place Spillway reads a
 * database it does not own. Rows come back as OpenCode wrote them (`data` is its JSON); the
 * history importer makes sense of them.
 */
import Database from "better-sqlite3";

/** The file name of OpenCode's store inside its data folder. */
export const OPENCODE_DB_FILE = "opencode.db";

export interface OpencodeSessionRow {
  id: string;
  directory: string | null;
  title: string | null;
  time_created: number;
}

export interface OpencodeDataRow {
  id: string;
  data: string;
  time_created: number;
}

export interface OpencodePartRow extends OpencodeDataRow {
  message_id: string;
}

export interface OpencodeDb {
  sessions(): OpencodeSessionRow[];
  messages(sessionId: string): OpencodeDataRow[];
  parts(sessionId: string): OpencodePartRow[];
  close(): void;
}

/** Opens the file read-only (OpenCode may be running: WAL readers do not block it). */
export function openOpencodeDb(file: string): OpencodeDb {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const messages = db.prepare("SELECT id, data, time_created FROM message WHERE session_id = ? ORDER BY time_created, id");
  const parts = db.prepare("SELECT id, message_id, data, time_created FROM part WHERE session_id = ? ORDER BY message_id, id");
  return {
    sessions: () =>
      db.prepare("SELECT id, directory, title, time_created FROM session ORDER BY time_created").all() as OpencodeSessionRow[],
    messages: (id) => messages.all(id) as OpencodeDataRow[],
    parts: (id) => parts.all(id) as OpencodePartRow[],
    close: () => db.close(),
  };
}
