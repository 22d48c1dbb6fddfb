// The ledger's detail goes after store.detailTtlDays; the figures built from it do not move, the
// inspector says what went, pinned results keep theirs, and the index stops growing. A real engine
// on a real SQLite file, with a fake clock.
import { createEngine, engineInternals, type Engine } from "../engine/engine";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { TaskQueue } from "../engine/taskQueue";
import { detailRetention } from "../engine/detailRetention";
import { PRUNE_BATCH } from "./detailPrune";

const DAY = 86_400_000;
const log = (seed: string, lines = 900) =>
  Array.from({ length: lines }, (_, i) =>
    i % 97 === 13 ? `${seed} ERROR step ${i} failed` : `${seed} step ${i}: compiled in ${i % 50} ms`,
  ).join("\n");
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function open(store: Record<string, unknown> = {}) {
  const home = tempHome();
  const clock = new FakeClock();
  // Blobs outlive the detail here, so what goes is the prune's doing, not expiry's.
  const config = parseConfig({ store: { ttlHours: 24 * 400, hotTtlHours: 24 * 400, ...store } });
  const engine = createEngine({ home: home.path, config, clock, logger: memoryLogger() });
  const db = engineInternals(engine).store.db;
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  return {
    engine,
    clock,
    db,
    count,
    close: async () => {
      await engine.close();
      home.cleanup();
    },
  };
}

const rpc = (name: string, args: unknown, text: string) => ({
  request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
  response: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } },
  upstreamRequest: { jsonrpc: "2.0", method: "tools/call", params: { name, arguments: args } },
  upstreamResponse: { jsonrpc: "2.0", result: { content: [{ type: "text", text }] } },
});

/** A session's calls as the proxy records them: a rescue read back, its repeat, a reference passed on, a small result with an image, a failure. */
function agentSession(engine: Engine, sessionId: string, seed: string) {
  const call = (tool: string, args: Record<string, unknown>, text: string) => {
    const r = engine.transformToolResult({ sessionId, tool, server: "files", args, text });
    engine.noteCall(r.callId!, { durationMs: 12, upstreamMs: 9, rpc: rpc(tool, args, text) });
    return r;
  };
  const rescued = call("read_log", { path: `/var/log/${seed}.log` }, log(seed));
  const read = engine.fetch({ sessionId, id: rescued.blobId, mode: "grep", args: { pattern: "ERROR" } });
  engine.noteRead(read.eventId!, { durationMs: 2, rpc: rpc("rescuer_fetch", { id: rescued.blobId, mode: "grep" }, read.text) });
  const stub = call("read_log", { path: `/var/log/${seed}.log` }, log(seed));
  const passed = engine.expandArguments({ sessionId, tool: "summarize", args: { text: `spill:${rescued.blobId}` } });
  const summary = engine.transformToolResult({
    sessionId,
    tool: "summarize",
    server: "llm",
    args: { text: `spill:${rescued.blobId}` },
    text: "3 failures",
  });
  engine.noteCall(summary.callId!, { expansionEventIds: passed.eventIds, rpc: rpc("summarize", passed.args, "3 failures") });
  const chart = engine.transformToolResult({ sessionId, tool: "chart", server: "plots", args: {}, text: "build times" });
  engine.noteCall(chart.callId!, {
    media: [{ type: "image", mime: "image/png", bytes: 70, thumb: PNG }],
    rpc: rpc("chart", {}, "build times"),
  });
  const failed = engine.recordFailedCall({
    sessionId,
    tool: "deploy",
    server: "ops",
    args: { manifest: `kind: Deployment ${seed} `.repeat(60) },
    message: `The upstream ops crashed while running deploy (${seed}): `.padEnd(500, "stack "),
  })!;
  engine.noteCall(failed, { rpc: rpc("deploy", {}, "crashed") });
  return { rescued: rescued.callId!, blobId: rescued.blobId!, readId: read.eventId!, stub: stub.callId!, chart: chart.callId!, failed };
}

/** Every figure the inspector, the tray and `spillway status` show, and the session tables. */
function figures(engine: Engine) {
  const r = engine.reader;
  const sessions = r.listSessions({ offset: 0, limit: 50, sort: { by: "lastSeenAt", dir: "desc" } });
  return {
    savings: (["total", "session", "tool", "server", "day"] as const).map((g) => engine.savings(g)),
    failures: r.failureTotals(),
    references: r.referenceTotals(),
    stats: r.stats(),
    sessions,
    timelines: sessions.rows.map((s) => r.timeline(s.id, 0, 100)),
  };
}

const noHead = () => null;

describe("the ledger's detail after store.detailTtlDays", () => {
  it("is removed by a sweep while every figure and the session tables stay as they were; the call says what went", async () => {
    const s = open();
    const a = agentSession(s.engine, "agent-a", "alpha");
    const b = agentSession(s.engine, "agent-b", "beta");
    await s.engine.idle();
    s.engine.setPinned(b.blobId, true);
    const detailRows = () => s.count("SELECT COUNT(*) AS n FROM rpc_log") + s.count("SELECT COUNT(*) AS n FROM event_texts");
    const before = figures(s.engine);
    const rowsBefore = detailRows();
    expect(rowsBefore).toBeGreaterThan(10);

    s.clock.advance(29 * DAY);
    expect(s.engine.sweep().detailPruned).toEqual({ calls: 0, reads: 0 });
    expect(detailRows()).toBe(rowsBefore);
    expect(s.engine.reader.callDetail(a.rescued, noHead)!.detailRemovedAt).toBeNull();

    s.clock.advance(2 * DAY);
    const swept = s.engine.sweep();
    const removedAt = s.clock.now();
    // Every call but the two of b's pinned result (the rescue and its repeat), whose detail is kept whole.
    const calls = s.count("SELECT COUNT(*) AS n FROM calls");
    expect(swept.detailPruned.calls).toBe(calls - 2);
    expect(swept.detailPruned.reads).toBe(1); // a's grep (its answer and JSON-RPC); b's read a pinned result
    expect(swept.indexBytes).toBeGreaterThan(0);
    expect(figures(s.engine)).toEqual(before);
    expect(s.engine.sweep().detailPruned).toEqual({ calls: 0, reads: 0 });

    const texts = s.db
      .prepare("SELECT session_id, raw_text, given_text FROM calls WHERE raw_text IS NOT NULL OR given_text IS NOT NULL")
      .all() as {
      session_id: string;
      raw_text: string | null;
    }[];
    // Of session a, only the failure's sentence, as the row shows it.
    expect(texts.filter((t) => t.session_id === "agent-a").map((t) => t.raw_text)).toEqual([
      expect.stringMatching(/^The upstream ops crashed.*more chars\]$/),
    ]);
    expect(s.count("SELECT COUNT(*) AS n FROM rpc_log r JOIN calls c ON c.id = r.call_id WHERE c.session_id = 'agent-a'")).toBe(0);
    expect(s.count("SELECT COUNT(*) AS n FROM rpc_log r JOIN events e ON e.id = r.event_id WHERE e.session_id = 'agent-a'")).toBe(0);
    expect(s.count("SELECT COUNT(*) AS n FROM event_texts t JOIN events e ON e.id = t.event_id WHERE e.session_id = 'agent-a'")).toBe(0);
    expect(s.count("SELECT COUNT(*) AS n FROM call_media WHERE thumb IS NOT NULL")).toBe(0);

    const rescued = s.engine.reader.callDetail(a.rescued, noHead)!;
    expect(rescued.detailRemovedAt).toBe(removedAt);
    expect(rescued.rpc).toBeNull();
    expect(rescued.given).toMatchObject({ source: "pruned", text: "", totalChars: rescued.call.givenChars });
    expect(rescued.raw).toMatchObject({ source: "pruned", totalChars: rescued.call.returnedChars });
    expect(rescued.reads.map((e) => [e.type, e.answer, e.detailRemovedAt])).toEqual([["fetch", null, removedAt]]);
    expect(s.engine.reader.eventDetail(a.readId)).toMatchObject({ rpc: null, event: { answer: null, detailRemovedAt: removedAt } });
    expect(s.engine.reader.callDetail(a.stub, noHead)!.given.source).toBe("pruned");
    const chart = s.engine.reader.callDetail(a.chart, noHead)!;
    expect(chart.raw.source).toBe("pruned");
    expect(chart.media).toEqual([{ type: "image", mime: "image/png", bytes: 70, thumb: null }]);
    const failed = s.engine.reader.callDetail(a.failed, noHead)!;
    expect(failed.raw.text).toMatch(/^The upstream ops crashed while running deploy \(alpha\)/);
    expect(failed.call.argsJson).toMatch(/^\{"manifest":"kind: Deployment alpha .*… \[[\d,]+ more chars\]$/);

    const pinned = s.engine.reader.callDetail(b.rescued, noHead)!;
    expect(pinned.detailRemovedAt).toBeNull();
    expect(pinned.rpc?.request).toContain("/var/log/beta.log");
    expect(pinned.given.source).toBe("ledger");
    expect(pinned.reads[0]!.answer?.text).toContain("beta ERROR step 13 failed");

    // Unpinned, its detail is old like the rest: the next sweep removes it.
    s.engine.setPinned(b.blobId, false);
    const unpinned = figures(s.engine);
    expect(s.engine.sweep().detailPruned.calls).toBe(2);
    expect(s.engine.reader.callDetail(b.rescued, noHead)!.detailRemovedAt).toBe(removedAt);
    expect(s.count("SELECT COUNT(*) AS n FROM rpc_log") + s.count("SELECT COUNT(*) AS n FROM event_texts")).toBe(0);
    expect(figures(s.engine)).toEqual(unpinned);
    await s.close();
  });

  it("is kept forever with store.detailTtlDays 0, and removed once a number of days is set", async () => {
    const home = tempHome();
    const clock = new FakeClock();
    const engineWith = (detailTtlDays: number) =>
      createEngine({ home: home.path, config: parseConfig({ store: { detailTtlDays } }), clock, logger: memoryLogger() });
    const forever = engineWith(0);
    const a = agentSession(forever, "agent-a", "alpha");
    clock.advance(400 * DAY);
    expect(forever.sweep().detailPruned).toEqual({ calls: 0, reads: 0 });
    expect(forever.reader.callDetail(a.stub, noHead)!.given.source).toBe("ledger");
    await forever.close();
    const month = engineWith(30);
    expect(month.sweep().detailPruned.calls).toBe(5);
    expect(month.reader.callDetail(a.stub, noHead)!.given.source).toBe("pruned");
    await month.close();
    home.cleanup();
  });

  it("frees pages the next calls reuse: the index stops growing over cycles of calls and sweeps", async () => {
    // Default blob TTLs: results expire as they do in use; the ledger is what would keep growing.
    const s = open({ ttlHours: 72, hotTtlHours: 168 });
    const pages: number[] = [];
    for (let cycle = 0; cycle < 6; cycle++) {
      for (let i = 0; i < 60; i++) {
        const sessionId = `c${cycle}`;
        const text = `${"src/module.ts:".repeat(5)} cycle ${cycle} call ${i}\n`.repeat(i % 10 === 0 ? 400 : 40);
        const r = s.engine.transformToolResult({ sessionId, tool: "read_file", server: "files", args: { path: `/src/m${i}.ts` }, text });
        s.engine.noteCall(r.callId!, { durationMs: 5, rpc: rpc("read_file", { path: `/src/m${i}.ts` }, text) });
      }
      await s.engine.idle();
      s.clock.advance(31 * DAY);
      s.engine.sweep();
      pages.push(s.db.pragma("page_count", { simple: true }) as number);
    }
    // Without the prune each cycle adds half as much as the first made (349, 526, 692, 865…
    // pages); with it the growth dies out within a few cycles (349, 386, 410, 443, 443, 443): the
    // calls fit in the pages the sweep before freed, beside the slim rows kept for good.
    expect(pages[5]! - pages[3]!).toBeLessThan(pages[0]! * 0.1);
    expect(s.db.pragma("freelist_count", { simple: true })).toBeGreaterThan(0);
    await s.close();
  });

  it("goes in the background after an endpoint's sweep (the timer's, the inspector's) has returned", async () => {
    const s = open();
    for (let i = 0; i < 150; i++) s.engine.transformToolResult({ sessionId: "busy", tool: "ls", args: { i }, text: `file-${i}.ts` });
    s.clock.advance(31 * DAY);
    const pruned = () => s.count("SELECT COUNT(*) AS n FROM calls WHERE detail_pruned_at IS NOT NULL");
    expect(s.engine.sweep(true, false, true).detailPruned).toEqual({ calls: 0, reads: 0 });
    expect(pruned()).toBe(0);
    await s.engine.idle();
    expect(pruned()).toBe(150);
    await s.close();
  });

  it("runs a batch per background task, so calls get in between", async () => {
    const s = open();
    for (let i = 0; i < PRUNE_BATCH * 2 + 50; i++) {
      const r = s.engine.transformToolResult({ sessionId: "busy", tool: "ls", args: { i }, text: `file-${i}.ts` });
      s.engine.noteCall(r.callId!, { rpc: rpc("ls", { i }, `file-${i}.ts`) });
    }
    s.clock.advance(31 * DAY);
    const queue = new TaskQueue(memoryLogger());
    const retention = detailRetention(engineInternals(s.engine).store, queue, memoryLogger());
    const pruned = () => s.count("SELECT COUNT(*) AS n FROM calls WHERE detail_pruned_at IS NOT NULL");
    const seen: number[] = [];
    retention.start();
    retention.start(); // a second timer tick while a run is under way starts nothing
    queue.push(() => void seen.push(pruned()));
    await queue.idle();
    expect(seen).toEqual([PRUNE_BATCH]);
    expect(pruned()).toBe(PRUNE_BATCH * 2 + 50);
    await s.close();
  });
});
