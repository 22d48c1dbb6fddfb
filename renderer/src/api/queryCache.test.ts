import { afterEach, describe, expect, it, vi } from "vitest";
import { QueryCache, queryKey, REFRESH_DUTY } from "./queryCache";
import type { Transport } from "./transport";

function fakeTransport() {
  const calls: { op: string; req: unknown; resolve: (v: unknown) => void }[] = [];
  const t: Transport = {
    call: (op, req) => new Promise((resolve) => calls.push({ op, req, resolve: (v) => resolve({ ok: true, value: v } as never) })),
    subscribe: () => () => {},
  };
  return { t, calls };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A cache on fake time, with one view on screen whose first fetch is running. */
function onScreen(op: "sessions.list" | "overview.get") {
  vi.useFakeTimers({ now: 1_000_000 });
  const { t, calls } = fakeTransport();
  const c = new QueryCache(t);
  const stop = c.subscribe(op, {}, () => {});
  void c.ensure(op, {});
  return { c, calls, stop };
}

describe("QueryCache", () => {
  it("keys requests by operation and parameters, whatever the key order", () => {
    expect(queryKey("blobs.list", { sort: { dir: "asc", by: "chars" }, offset: 0 })).toBe(
      queryKey("blobs.list", { offset: 0, sort: { by: "chars", dir: "asc" } }),
    );
  });

  it("fetches once, shares a request in flight, and keeps data while refreshing", async () => {
    const { t, calls } = fakeTransport();
    const c = new QueryCache(t);
    const stop = c.subscribe("overview.get", {}, () => {});
    void c.ensure("overview.get", {});
    void c.ensure("overview.get", {});
    expect(calls).toHaveLength(1);
    calls[0]!.resolve({ n: 1 });
    await tick();
    expect(c.snapshot("overview.get", {})).toMatchObject({ status: "ok", data: { n: 1 } });
    c.invalidate(["overview.get"]);
    expect(calls).toHaveLength(2);
    expect(c.snapshot("overview.get", {})).toMatchObject({ data: { n: 1 }, refreshing: true });
    calls[1]!.resolve({ n: 2 });
    await tick();
    expect(c.snapshot("overview.get", {})).toMatchObject({ data: { n: 2 }, refreshing: false });
    stop();
  });

  describe("invalidated during a fetch", () => {
    afterEach(() => vi.useRealTimers());

    it("refreshes again at once after the user's own action, however long the fetch took, and only what is on screen", async () => {
      const { c, calls, stop } = onScreen("sessions.list");
      void c.ensure("config.get", {});
      c.invalidate("all");
      await vi.advanceTimersByTimeAsync(50); // a fetch that costs time (a loaded machine)
      calls[0]!.resolve({ old: true });
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.filter((x) => x.op === "sessions.list")).toHaveLength(2);
      expect(calls.filter((x) => x.op === "config.get")).toHaveLength(1);
      stop();
    });

    it("refreshes again in its turn after an agent's activity", async () => {
      const { c, calls, stop } = onScreen("sessions.list");
      c.invalidate("all", true);
      await vi.advanceTimersByTimeAsync(50);
      calls[0]!.resolve({ old: true });
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(50 * (1 / REFRESH_DUTY - 1));
      expect(calls).toHaveLength(2);
      stop();
    });
  });

  it("reports a lost session once", async () => {
    const t: Transport = { call: async () => ({ ok: false, error: { code: "unauthorized", message: "x" } }), subscribe: () => () => {} };
    const c = new QueryCache(t);
    let lost = 0;
    c.onUnauthorized = () => lost++;
    await c.ensure("overview.get", {});
    expect(lost).toBe(1);
    expect(c.snapshot("overview.get", {}).status).toBe("error");
  });

  describe("refreshes pushed by an agent's activity", () => {
    afterEach(() => vi.useRealTimers());

    it("wait in proportion to what the last fetch cost, so a costly view keeps the engine busy a tenth of the time", async () => {
      const { c, calls, stop } = onScreen("overview.get");
      await vi.advanceTimersByTimeAsync(200); // the engine takes 200 ms to answer
      calls[0]!.resolve({ n: 1 });
      await vi.advanceTimersByTimeAsync(0);
      const turn = 200 * (1 / REFRESH_DUTY - 1);
      // a burst of activity: one refresh, when its turn comes
      for (let i = 0; i < 5; i++) c.invalidate(["overview.get"], true);
      await vi.advanceTimersByTimeAsync(turn - 1);
      expect(calls).toHaveLength(1);
      expect(c.snapshot("overview.get", {}).data).toEqual({ n: 1 });
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      calls[1]!.resolve({ n: 2 });
      await vi.advanceTimersByTimeAsync(0);
      expect(c.snapshot("overview.get", {}).data).toEqual({ n: 2 });
      // the user's own action refreshes at once, however costly the view
      c.invalidate(["overview.get"]);
      expect(calls).toHaveLength(3);
      stop();
    });

    it("refresh a cheap view at once, and nothing that is off screen", async () => {
      const { c, calls, stop } = onScreen("sessions.list");
      void c.ensure("config.get", {});
      calls[0]!.resolve({ a: 1 });
      calls[1]!.resolve({ b: 1 });
      await vi.advanceTimersByTimeAsync(0);
      c.invalidate("all", true);
      expect(calls.map((x) => x.op)).toEqual(["sessions.list", "config.get", "sessions.list"]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls).toHaveLength(3);
      stop();
    });
  });
  describe("when the server stops answering", () => {
    /** A transport whose answers the test sets: the server up, gone, or restarted (no session). */
    function server() {
      let mode: "up" | "gone" | "restarted" = "up";
      const calls: string[] = [];
      const t: Transport = {
        call: async (op) => {
          calls.push(op);
          if (mode === "gone") return { ok: false, error: { code: "unreachable", message: "gone" } };
          if (mode === "restarted") return { ok: false, error: { code: "unauthorized", message: "no session" } };
          return { ok: true, value: { n: calls.length } } as never;
        },
        subscribe: () => () => {},
      };
      return { t, calls, set: (m: typeof mode) => (mode = m) };
    }

    it("says so after a failed call, and refreshes what is on screen once it answers again", async () => {
      const s = server();
      const c = new QueryCache(s.t);
      const stop = c.subscribe("sessions.list", {}, () => {});
      await c.ensure("sessions.list", {});
      await c.ensure("config.get", {}); // off screen
      expect(c.connection.state).toBe("up");
      s.set("gone");
      await c.refetch("sessions.list", {});
      expect(c.connection.state).toBe("down");
      // the data shown before stays
      expect(c.snapshot("sessions.list", {}).data).toEqual({ n: 1 });
      s.set("up");
      s.calls.length = 0;
      expect(c.answered()).toBe(true);
      await tick();
      expect(c.connection.state).toBe("up");
      expect(s.calls).toEqual(["sessions.list"]);
      expect(c.snapshot("sessions.list", {})).toMatchObject({ status: "ok", data: { n: 1 } });
      // an answer while up is no outage ending
      expect(c.answered()).toBe(false);
      stop();
    });

    it("tells a session lost to a restart from one that ran out", async () => {
      const s = server();
      const c = new QueryCache(s.t);
      const seen: boolean[] = [];
      c.onUnauthorized = (afterOutage) => seen.push(afterOutage);
      s.set("restarted");
      await c.ensure("overview.get", {});
      s.set("gone");
      await c.refetch("overview.get", {});
      s.set("restarted");
      await c.refetch("overview.get", {});
      expect(seen).toEqual([false, true]);
      expect(c.connection.state).toBe("up");
    });
  });
});
