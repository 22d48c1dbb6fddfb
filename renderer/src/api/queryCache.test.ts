import { describe, expect, it } from "vitest";
import { QueryCache, queryKey } from "./queryCache";
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

  it("refreshes again when invalidated during a fetch, and only what is on screen", async () => {
    const { t, calls } = fakeTransport();
    const c = new QueryCache(t);
    const stop = c.subscribe("sessions.list", {}, () => {});
    void c.ensure("sessions.list", {});
    void c.ensure("config.get", {});
    c.invalidate("all");
    calls[0]!.resolve({ old: true });
    await tick();
    expect(calls.filter((x) => x.op === "sessions.list")).toHaveLength(2);
    expect(calls.filter((x) => x.op === "config.get")).toHaveLength(1);
    stop();
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
});
