/** Numbered schema migrations; each runs once, inside a transaction, tracked by PRAGMA user_version. */
import type { Database } from "better-sqlite3";
import { searchMigrationSql } from "../search/searchIndex";

const BASE_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE blobs (
  id TEXT PRIMARY KEY,
  chars INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  encoding TEXT NOT NULL,
  kind TEXT NOT NULL,
  shape TEXT NOT NULL,
  tool TEXT NOT NULL,
  server TEXT,
  session_id TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT 'public',
  encrypted INTEGER NOT NULL DEFAULT 0,
  pinned INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  last_access_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  fetch_count INTEGER NOT NULL DEFAULT 0,
  sidecar_bytes INTEGER NOT NULL DEFAULT 0,
  tombstoned_at INTEGER,
  tombstone_expires_at INTEGER,
  tombstone_reason TEXT
);
CREATE INDEX blobs_live_lru ON blobs (tombstoned_at, pinned, last_access_at);
CREATE INDEX blobs_expiry ON blobs (expires_at);
CREATE INDEX blobs_session ON blobs (session_id);

CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  client TEXT,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  generation INTEGER NOT NULL DEFAULT 0,
  turn INTEGER NOT NULL DEFAULT 0
);

-- What each session holds: the blob ids it received (in full or as a handle), and in which
-- compaction generation it last received them.
CREATE TABLE session_blobs (
  session_id TEXT NOT NULL,
  blob_id TEXT NOT NULL,
  generation INTEGER NOT NULL,
  first_seen_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, blob_id)
) WITHOUT ROWID;
CREATE INDEX session_blobs_blob ON session_blobs (blob_id);

-- Streak guard: consecutive stubs per (session, tool, canonical arguments).
CREATE TABLE streaks (
  session_id TEXT NOT NULL,
  key TEXT NOT NULL,
  blob_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (session_id, key)
) WITHOUT ROWID;

CREATE TABLE calls (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  ts INTEGER NOT NULL,
  tool TEXT NOT NULL,
  server TEXT,
  args_json TEXT,
  outcome TEXT NOT NULL,
  blob_id TEXT,
  is_error INTEGER NOT NULL DEFAULT 0,
  returned_chars INTEGER NOT NULL,
  returned_tokens INTEGER,
  given_chars INTEGER NOT NULL,
  given_tokens INTEGER,
  raw_text TEXT,
  given_text TEXT
);
CREATE INDEX calls_session ON calls (session_id, id);
CREATE INDEX calls_blob ON calls (blob_id);
CREATE INDEX calls_ts ON calls (ts);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  type TEXT NOT NULL,
  session_id TEXT,
  blob_id TEXT,
  call_id INTEGER,
  tool TEXT,
  server TEXT,
  chars INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER,
  data_json TEXT
);
CREATE INDEX events_blob ON events (blob_id, id);
CREATE INDEX events_session ON events (session_id, id);
CREATE INDEX events_call ON events (call_id);
CREATE INDEX events_ts ON events (ts);
`;

/** The inspector sorts and filters 100 k-row blob tables by these columns. */
const BLOB_TABLE_INDEXES = `
CREATE INDEX blobs_created ON blobs (created_at);
CREATE INDEX blobs_chars ON blobs (chars);
CREATE INDEX blobs_tool ON blobs (tool, created_at);
`;

/**
 * Per-chunk checksums of a blob file (see integrity.ts), so a reader of a byte range verifies
 * only the chunks it reads. NULL for encrypted blobs (AES-GCM authenticates them whole) and for
 * blobs stored before this migration (verified whole against their id).
 */
const BLOB_CHUNK_SUMS = `ALTER TABLE blobs ADD COLUMN chunk_sums BLOB;`;

/**
 * The upstream tools each configured server last listed, so a starting proxy answers tools/list
 * before its upstreams are up. Keyed by the server's name and a keyed hash of its config entry:
 * an edited entry is a different key and never serves the old list.
 */
const UPSTREAM_TOOL_CATALOG = `
CREATE TABLE upstream_tools (
  server TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  tools_json TEXT NOT NULL,
  listed_at INTEGER NOT NULL,
  PRIMARY KEY (server, config_hash)
) WITHOUT ROWID;
`;

/**
 * Imported agent histories: sessions and calls marked imported (with agent, project, model and
 * the call's key in its source, which makes a re-import add only what is new), how the agent cut
 * a result, and the requests of each imported session (their non-result text in tokens), which
 * the replay lab re-sends one by one.
 */
const IMPORTED_HISTORY = `
ALTER TABLE sessions ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN agent TEXT;
ALTER TABLE sessions ADD COLUMN project TEXT;
ALTER TABLE sessions ADD COLUMN model TEXT;
ALTER TABLE sessions ADD COLUMN title TEXT;
ALTER TABLE sessions ADD COLUMN source TEXT;
CREATE INDEX sessions_imported ON sessions (imported, agent);
ALTER TABLE calls ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
ALTER TABLE calls ADD COLUMN model TEXT;
ALTER TABLE calls ADD COLUMN source_key TEXT;
ALTER TABLE calls ADD COLUMN request_seq INTEGER;
ALTER TABLE calls ADD COLUMN host_cut TEXT;
CREATE UNIQUE INDEX calls_source_key ON calls (source_key) WHERE source_key IS NOT NULL;
CREATE TABLE history_requests (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  reset INTEGER NOT NULL DEFAULT 0,
  text_chars INTEGER NOT NULL,
  text_tokens INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
`;

/**
 * The audit trail: each call's duration, a structured-content part joined to its call, what each
 * read gave the model (masked), the JSON-RPC of a call (masked, long strings cut), and the images
 * and audio of a result.
 */
const AUDIT_TRAIL = `
ALTER TABLE calls ADD COLUMN started_at INTEGER;
ALTER TABLE calls ADD COLUMN duration_ms INTEGER;
ALTER TABLE calls ADD COLUMN upstream_ms INTEGER;
ALTER TABLE calls ADD COLUMN part_of INTEGER;
ALTER TABLE events ADD COLUMN duration_ms INTEGER;
CREATE INDEX calls_part_of ON calls (part_of) WHERE part_of IS NOT NULL;
CREATE TABLE event_texts (event_id INTEGER PRIMARY KEY, blob_id TEXT, text TEXT NOT NULL, chars INTEGER NOT NULL);
CREATE INDEX event_texts_blob ON event_texts (blob_id);
CREATE TABLE rpc_log (
  id INTEGER PRIMARY KEY,
  call_id INTEGER,
  event_id INTEGER,
  request TEXT NOT NULL,
  response TEXT,
  upstream_request TEXT,
  upstream_response TEXT
);
CREATE INDEX rpc_log_call ON rpc_log (call_id) WHERE call_id IS NOT NULL;
CREATE INDEX rpc_log_event ON rpc_log (event_id) WHERE event_id IS NOT NULL;
CREATE TABLE call_media (
  call_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  type TEXT NOT NULL,
  mime TEXT,
  bytes INTEGER NOT NULL,
  thumb TEXT,
  PRIMARY KEY (call_id, idx)
) WITHOUT ROWID;
`;

/** Bytes of the files kept beside a blob (its line index and outline), counted in the size cap. */
const BLOB_AUX_BYTES = `ALTER TABLE blobs ADD COLUMN aux_bytes INTEGER NOT NULL DEFAULT 0;`;

/** Token counts of big results are estimated from a sample (issue 12); the ledger says which. */
const TOKENS_ESTIMATED = `ALTER TABLE calls ADD COLUMN tokens_estimated INTEGER NOT NULL DEFAULT 0;`;

/** A call's raw record may be a hook request and its answer rather than JSON-RPC (RAW_RECORD_KINDS). */
const RAW_RECORD_KIND = `
ALTER TABLE rpc_log ADD COLUMN kind TEXT NOT NULL DEFAULT 'jsonrpc';
`;

/**
 * The bytes the size cap counts (live blobs' files, search sidecars and aux files), kept as one
 * row by triggers: every rescue asked for SUM over all blobs, a scan that grows with the store
 * (several ms per rescue at 50 k blobs). Triggers keep it exact for every process sharing the index.
 */
const STORE_USAGE = `
CREATE TABLE store_usage (id INTEGER PRIMARY KEY CHECK (id = 0), bytes INTEGER NOT NULL);
INSERT INTO store_usage (id, bytes)
  SELECT 0, COALESCE(SUM(bytes + sidecar_bytes + aux_bytes), 0) FROM blobs WHERE tombstoned_at IS NULL;
CREATE TRIGGER store_usage_insert AFTER INSERT ON blobs WHEN NEW.tombstoned_at IS NULL BEGIN
  UPDATE store_usage SET bytes = bytes + NEW.bytes + NEW.sidecar_bytes + NEW.aux_bytes WHERE id = 0;
END;
CREATE TRIGGER store_usage_delete AFTER DELETE ON blobs WHEN OLD.tombstoned_at IS NULL BEGIN
  UPDATE store_usage SET bytes = bytes - OLD.bytes - OLD.sidecar_bytes - OLD.aux_bytes WHERE id = 0;
END;
CREATE TRIGGER store_usage_update AFTER UPDATE OF bytes, sidecar_bytes, aux_bytes, tombstoned_at ON blobs BEGIN
  UPDATE store_usage SET bytes = bytes
    - CASE WHEN OLD.tombstoned_at IS NULL THEN OLD.bytes + OLD.sidecar_bytes + OLD.aux_bytes ELSE 0 END
    + CASE WHEN NEW.tombstoned_at IS NULL THEN NEW.bytes + NEW.sidecar_bytes + NEW.aux_bytes ELSE 0 END
  WHERE id = 0;
END;
`;

/**
 * The inspector's and the tray's figures read every call's numbers in a time range, and the
 * calls table also holds each handle given, so reading the rows read the handles too (the
 * sessions list took 300 ms at 100 k calls, the savings 200 ms). This index holds just the
 * numbers, in time order, and takes the place of calls_ts (its first column). Sealed blobs get
 * their own small index for their count.
 */
const CALL_FIGURES = `
DROP INDEX calls_ts;
CREATE INDEX calls_figures ON calls (ts, session_id, imported, part_of, outcome, is_error, returned_chars, given_chars,
  returned_tokens, given_tokens, tokens_estimated, tool, server);
CREATE INDEX blobs_sealed ON blobs (encrypted) WHERE encrypted = 1;
`;

/**
 * When a Spillway MCP session last served the session (its client initialized, or a call named it):
 * Claude Code's hooks replace a result by a handle only in a session whose model has the tools to read it.
 */
const SESSION_TOOLS = `ALTER TABLE sessions ADD COLUMN tools_at INTEGER;`;

/**
 * A call's detail (its raw record, the texts it returned and was given, its arguments past a
 * preview, thumbnails) and a read's (its answer, its JSON-RPC) are removed after
 * `store.detailTtlDays` while their figures stay (store/detailPrune): the rows say when, so the
 * inspector tells a detail removed from one never kept. The partial index holds only the calls
 * whose detail is still there, so a sweep finds those due without walking the years already pruned.
 */
const DETAIL_PRUNING = `
ALTER TABLE calls ADD COLUMN detail_pruned_at INTEGER;
ALTER TABLE events ADD COLUMN detail_pruned_at INTEGER;
CREATE INDEX calls_detail_kept ON calls (ts) WHERE detail_pruned_at IS NULL AND imported = 0;
`;

/**
 * Which process's MCP session served the session: a stdio server lives as long as the agent
 * process that started it, so once it has exited (a `claude --resume` whose Spillway server did
 * not start), the hooks no longer count the session as having the tools.
 */
const SESSION_TOOLS_PID = `ALTER TABLE sessions ADD COLUMN tools_pid INTEGER;`;

/**
 * The instructions each upstream gave in its initialize answer (masked and cut, see
 * mcp/upstreamInstructions.ts), kept beside its tool list: initialize is answered before the
 * upstreams start, with the ones they gave last time. NULL: the server gave none.
 */
const UPSTREAM_INSTRUCTIONS = `ALTER TABLE upstream_tools ADD COLUMN instructions TEXT;`;

/** Migration N is MIGRATIONS[N - 1]. Append only; never edit a shipped migration. */
export const MIGRATIONS: readonly string[] = [
  BASE_SCHEMA,
  searchMigrationSql,
  BLOB_TABLE_INDEXES,
  BLOB_CHUNK_SUMS,
  UPSTREAM_TOOL_CATALOG,
  IMPORTED_HISTORY,
  AUDIT_TRAIL,
  BLOB_AUX_BYTES,
  TOKENS_ESTIMATED,
  RAW_RECORD_KIND,
  STORE_USAGE,
  CALL_FIGURES,
  SESSION_TOOLS,
  DETAIL_PRUNING,
  SESSION_TOOLS_PID,
  UPSTREAM_INSTRUCTIONS,
];

/** Applies pending migrations, one transaction each. Safe when two processes race to open. */
export function migrate(db: Database): number {
  let applied = 0;
  for (;;) {
    const step = db.transaction(() => {
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version >= MIGRATIONS.length) return false;
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
      return true;
    });
    // IMMEDIATE takes the write lock before reading user_version, so a concurrent opener waits
    // instead of applying the same migration twice.
    if (!step.immediate()) return applied;
    applied++;
  }
}
