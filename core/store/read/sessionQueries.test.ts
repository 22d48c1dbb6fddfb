// The sessions list: a page sorted by a session's own column sums only that page's calls; its
// figures must equal those summed over every call (what a sort by a figure computes), on a
// store the real engine wrote.
import { createEngine, type Engine } from "../../engine/engine";
import { FakeClock, memoryLogger } from "../../runtime";
import { tempHome } from "../../../tests/helpers/tempHome";
import type { SessionSortKey, SessionSummary } from "./readModel";

const big = (seed: string) => Array.from({ length: 700 }, (_, i) => `${seed} line ${i}: took ${i % 83} ms`).join("\n");

describe("sessions list", () => {
  let home: ReturnType<typeof tempHome>;
  let engine: Engine;
  const clock = new FakeClock();

  beforeAll(async () => {
    home = tempHome();
    engine = createEngine({ home: home.path, clock, logger: memoryLogger() });
    // Sessions with different numbers of rescues, stubs, pass-throughs, errors and fetches.
    for (let s = 0; s < 9; s++) {
      const sessionId = `sess-${String.fromCharCode(97 + ((s * 5) % 9))}`;
      for (let c = 0; c <= s; c++) {
        clock.advance(1_000);
        const r = engine.transformToolResult({ sessionId, tool: c % 2 ? "read_log" : "grep", args: { c }, text: big(`${s}-${c}`) });
        if (c % 3 === 0) engine.fetch({ sessionId, id: r.blobId!, mode: "grep", args: { pattern: "line 1" } });
      }
      engine.transformToolResult({ sessionId, tool: "read_log", args: { c: 1 }, text: big(`${s}-1`) }); // a stub or a repeat
      engine.transformToolResult({ sessionId, tool: "echo", args: {}, text: "ok", isError: s % 4 === 0 });
    }
    await engine.idle();
  });
  afterAll(async () => {
    await engine.close();
    home.cleanup();
  });

  const list = (by: SessionSortKey, dir: "asc" | "desc", offset = 0, limit = 50, query?: string) =>
    engine.reader.listSessions({ sort: { by, dir }, offset, limit, ...(query ? { query } : {}) });

  it("gives every page's sessions the figures summed over all calls, in the sort's order", () => {
    // Sorting by a figure sums every session's calls: the reference.
    const all = list("calls", "desc", 0, 100);
    expect(all.total).toBe(9);
    const byId = new Map(all.rows.map((r) => [r.id, r]));
    expect([...byId.values()].some((r) => r.fetches > 0 && r.stubbed > 0 && r.errors > 0)).toBe(true);
    const key: Record<string, (r: SessionSummary) => string | number> = {
      lastSeenAt: (r) => r.lastSeenAt,
      createdAt: (r) => r.createdAt,
      id: (r) => r.id,
      client: (r) => (r.client ?? "").toLowerCase(),
    };
    for (const by of ["lastSeenAt", "createdAt", "id", "client"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        const pages = [list(by, dir, 0, 4), list(by, dir, 4, 4), list(by, dir, 8, 4)];
        const rows = pages.flatMap((p) => p.rows);
        expect(rows.map((r) => r.id).sort()).toEqual([...byId.keys()].sort());
        for (const r of rows) expect(r).toEqual(byId.get(r.id));
        const expected = [...rows].sort((a, b) => {
          const x = key[by]!(a);
          const y = key[by]!(b);
          const c = x < y ? -1 : x > y ? 1 : 0;
          return (dir === "asc" ? c : -c) || (a.id < b.id ? -1 : 1);
        });
        expect(rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      }
    }
  });

  it("filters before it pages, and one session's summary is its row in the list", () => {
    const page = list("lastSeenAt", "desc", 0, 50, "sess-c");
    expect(page.total).toBe(1);
    expect(page.rows).toEqual([engine.reader.session("sess-c")]);
    expect(page.rows[0]).toEqual(list("calls", "desc", 0, 100).rows.find((r) => r.id === "sess-c"));
  });
});
