// The store's figures (tray, status, overview), read from indexes and kept totals, against what
// a plain scan of the same tables says, on a store the real engine wrote.
import { createEngine, engineInternals, type Engine } from "../../engine/engine";
import { memoryLogger } from "../../runtime";
import { tempHome } from "../../../tests/helpers/tempHome";

const big = (seed: string) => Array.from({ length: 900 }, (_, i) => `${seed} line ${i}: served in ${i % 89} ms`).join("\n");

/** The figures as one scan of the tables gives them (what storeStats computed before). */
function scanned(engine: Engine) {
  const db = engineInternals(engine).store.db;
  const b = db
    .prepare(
      `SELECT SUM(tombstoned_at IS NULL AND pinned = 0) AS live, SUM(tombstoned_at IS NULL AND pinned = 1) AS pinned,
         SUM(tombstoned_at IS NOT NULL) AS tombstoned, SUM(tombstoned_at IS NULL AND encrypted = 1) AS encrypted,
         COALESCE(SUM(CASE WHEN tombstoned_at IS NULL THEN bytes + sidecar_bytes + aux_bytes END), 0) AS used FROM blobs`,
    )
    .get() as Record<string, number | null>;
  const c = db.prepare("SELECT COALESCE(SUM(part_of IS NULL), 0) AS n, MAX(ts) AS last FROM calls").get() as { n: number; last: number };
  const sessions = (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
  return {
    blobs: { live: b.live ?? 0, pinned: b.pinned ?? 0, tombstoned: b.tombstoned ?? 0, encrypted: b.encrypted ?? 0 },
    usedBytes: b.used,
    sessions,
    calls: c.n,
    lastCallAt: c.last,
  };
}

describe("store figures", () => {
  it("count blobs by state, sealed blobs, bytes, sessions and calls (parts of a call not counted) as a scan would", async () => {
    const home = tempHome();
    const engine = createEngine({ home: home.path, logger: memoryLogger() });
    expect(engine.reader.stats()).toEqual(scanned(engine));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = engine.transformToolResult({ sessionId: `s${i % 3}`, tool: "read_log", args: { i }, text: big(`run ${i}`) });
      expect(r.outcome).toBe("rescued");
      ids.push(r.blobId!);
    }
    // a repeat (stub), a small pass-through, and a result holding a key (sealed at rest)
    engine.transformToolResult({ sessionId: "s0", tool: "read_log", args: { i: 0 }, text: big("run 0") });
    engine.transformToolResult({ sessionId: "s1", tool: "echo", args: {}, text: "ok" });
    const sealed = engine.transformToolResult({
      sessionId: "s2",
      tool: "cat_env",
      args: {},
      text: "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" + big("env"),
    });
    expect(engine.reader.blob(sealed.blobId!)?.encrypted).toBe(true);
    engine.setPinned(ids[0]!, true);
    engine.setPinned(ids[1]!, true);
    expect(engineInternals(engine).store.tombstone(ids[2]!, "test")).toBe(true);
    // a structured part joined to its call is a row of its own, not a call
    const db = engineInternals(engine).store.db;
    const part = engine.transformToolResult({ sessionId: "s1", tool: "read_log", args: { part: 1 }, text: big("part") });
    db.prepare("UPDATE calls SET part_of = ? WHERE id = ?").run(sealed.callId, part.callId);
    await engine.idle(); // token counts and search sidecars land, which the used bytes count

    const stats = engine.reader.stats();
    expect(stats).toEqual(scanned(engine));
    expect(stats.blobs).toEqual({ live: 5, pinned: 2, tombstoned: 1, encrypted: 1 });
    expect(stats.calls).toBe(9);
    expect(stats.sessions).toBe(3);
    expect(stats.usedBytes).toBeGreaterThan(6 * 30_000);
    await engine.close();
    home.cleanup();
  });
});
