/**
 * The index as a starting `spillway mcp` opens it, before the engine loads: only the tool catalog
 * and the session row, so the first answers need neither the blob store nor the rest of the engine.
 */
import { ensurePrivateDir } from "../fs/fsUtil";
import { indexPath, openIndex } from "./db";
import { SessionStore } from "./sessions";
import { ToolCatalog } from "./toolCatalog";

export interface StartupIndex {
  catalog: ToolCatalog;
  /** Records that a session is active (and which client runs it, when known). */
  touchSession(sessionId: string, client?: string | null, tools?: boolean): void;
  close(): void;
}

/** Opens (creating and migrating if needed) the index of `home`. */
export function openStartupIndex(home: string, now: () => number = Date.now): StartupIndex {
  ensurePrivateDir(home);
  const db = openIndex(indexPath(home));
  const sessions = new SessionStore(db);
  return {
    catalog: new ToolCatalog(db, now),
    touchSession: (id, client, tools) => void sessions.touch(id, now(), client, tools),
    close: () => {
      if (db.open) db.close();
    },
  };
}
