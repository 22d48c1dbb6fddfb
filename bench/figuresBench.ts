/**
 * `npm run bench -- figures`: the store's figures (tray, `spillway status`, the inspector's
 * overview and sessions list) on a store of many calls, p50 ms. They run in the process that
 * also answers the agents (the desktop app's main process, `spillway serve`), so they must not
 * grow with the ledger's handles: the tray reads them after every burst of activity.
 */
import { performance } from "node:perf_hooks";
import { createEngine, engineInternals } from "../core/engine/engine";
import { memoryLogger } from "../core/runtime";
import { tempHome } from "../tests/helpers/tempHome";

const DAY = 86_400_000;

export function benchFigures(calls = 100_000): Record<string, number | string> {
  const home = tempHome("spillway-bench-figures-");
  const engine = createEngine({ home: home.path, logger: memoryLogger() });
  const db = engineInternals(engine).store.db;
  const now = Date.now();
  // A year of calls over 500 sessions, one a few minutes apart: a third rescued (the ledger keeps
  // the ~3 KB handle given), the rest passed through (their text kept when small).
  const handle = "[spillway: read_file returned 52,118 chars; stored as abcdefabcdef] " + "excerpt line\n".repeat(230);
  const insertCall = db.prepare(
    `INSERT INTO calls (session_id, ts, tool, server, args_json, outcome, blob_id, is_error, returned_chars, returned_tokens,
       given_chars, given_tokens, raw_text, given_text) VALUES (?, ?, ?, 'files', ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
  );
  // Each call's own event (rescue, stub or passthrough), and a fetch after one rescue in ten.
  const insertEvent = db.prepare(
    `INSERT INTO events (ts, type, session_id, blob_id, call_id, tool, server, chars, tokens, data_json)
       VALUES (?, ?, ?, ?, ?, 'read_file', 'files', ?, ?, ?)`,
  );
  const insertSession = db.prepare("INSERT OR IGNORE INTO sessions (id, created_at, last_seen_at) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < calls; i++) {
      const ts = now - Math.round(((calls - i) / calls) * 365 * DAY);
      const session = `session-${Math.floor((i / calls) * 500)}`;
      insertSession.run(session, ts, ts);
      const rescued = i % 3 === 0;
      const raw = rescued ? null : `{"ok":true,"path":"/srv/app/file${i}.ts"}`;
      const callId = insertCall.run(
        session,
        ts,
        i % 5 === 0 ? "search_files" : "read_file",
        `{"path":"/srv/app/file${i}.ts"}`,
        rescued ? "rescued" : "passthrough",
        rescued ? "abcdefabcdef" : null,
        rescued ? 52_118 : 40,
        rescued ? 13_000 : 12,
        rescued ? handle.length : 40,
        rescued ? 800 : 12,
        raw,
        rescued ? handle : null,
      ).lastInsertRowid;
      const given = rescued ? handle.length : 40;
      insertEvent.run(
        ts,
        rescued ? "rescue" : "passthrough",
        session,
        rescued ? "abcdefabcdef" : null,
        callId,
        given,
        null,
        JSON.stringify({ returned: rescued ? 52_118 : 40 }),
      );
      if (i % 30 === 0) insertEvent.run(ts + 1000, "fetch", session, "abcdefabcdef", null, 3_900, 1_000, '{"mode":"grep"}');
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  const p50 = (fn: () => unknown): number => {
    const xs: number[] = [];
    for (let k = 0; k < 7; k++) {
      const t0 = performance.now();
      fn();
      xs.push(performance.now() - t0);
    }
    xs.sort((a, b) => a - b);
    return Math.round(xs[3]! * 10) / 10;
  };
  const today = Date.parse(new Date(now).toISOString().slice(0, 10) + "T00:00:00.000Z");
  const out = {
    calls,
    "stats (tray, status)": p50(() => engine.reader.stats()),
    "savings today (tray)": p50(() => engine.savings("day", today)),
    "savings, last 30 days by day (overview)": p50(() => engine.savings("day", now - 30 * DAY)),
    "savings, all time (overview)": p50(() => engine.savings("total", 0)),
    "savings by session, all time": p50(() => engine.savings("session", 0)),
    "sessions list, first page": p50(() => engine.reader.listSessions({ sort: { by: "lastSeenAt", dir: "desc" }, limit: 50, offset: 0 })),
  };
  void engine.close();
  home.cleanup();
  return out;
}
