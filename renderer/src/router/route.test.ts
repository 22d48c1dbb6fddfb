import { describe, expect, it } from "vitest";
import { formatRoute, openCalls, parseRoute, sectionOf, toggleCall, type Route, type SessionRoute } from "./route";

describe("routes", () => {
  it("round-trips every route", () => {
    const routes: Route[] = [
      { name: "overview" },
      { name: "sessions" },
      { name: "session", id: "mcp-http:3f2a/9" },
      { name: "session", id: "3f2a", call: 17 },
      { name: "session", id: "3f2a", call: 17, open: [9, 12] },
      { name: "blobs" },
      { name: "blobs", tool: "read_file", state: "pinned" },
      { name: "blobs", q: "orders", role: "dedup", min: "20", from: "2026-03-14", sort: "chars", dir: "asc" },
      { name: "blob", id: "0123456789ab", line: 42 },
      { name: "search", q: "timeout error" },
      { name: "search", q: "hunter2 password", label: "credential", group: "session" },
      { name: "tools" },
      { name: "tools", tool: "fs__read_text_file" },
      { name: "endpoint" },
      { name: "settings" },
    ];
    for (const r of routes) expect(parseRoute(formatRoute(r))).toEqual(r);
  });

  it("falls back to the overview and ignores a bad line", () => {
    expect(parseRoute("")).toEqual({ name: "overview" });
    expect(parseRoute("#/nowhere")).toEqual({ name: "overview" });
    expect(parseRoute("#/blobs/0123456789ab?line=-3")).toEqual({ name: "blob", id: "0123456789ab" });
  });

  it("keeps a session's open calls in the URL, the last opened as `call`", () => {
    const none = parseRoute("#/sessions/s1") as SessionRoute;
    const one = toggleCall(none, 9);
    expect(formatRoute(one)).toBe("#/sessions/s1?call=9");
    const two = toggleCall(one, 12);
    expect(formatRoute(two)).toBe("#/sessions/s1?call=12&open=9");
    expect(openCalls(parseRoute(formatRoute(two)) as SessionRoute)).toEqual([9, 12]);
    // Closing the last opened one points the URL at the one opened before it.
    expect(toggleCall(two, 12)).toEqual(one);
    expect(toggleCall(two, 9)).toEqual({ name: "session", id: "s1", call: 12 });
    expect(toggleCall(one, 9)).toEqual({ name: "session", id: "s1" });
    // A hand-edited list: bad and repeated ids are dropped, the call stays last.
    expect(parseRoute("#/sessions/s1?call=5&open=3,x,5,-2,3,4")).toEqual({ name: "session", id: "s1", call: 5, open: [3, 4] });
  });

  it("maps detail pages to their section", () => {
    expect(sectionOf({ name: "blob", id: "x" })).toBe("blobs");
    expect(sectionOf({ name: "session", id: "x" })).toBe("sessions");
  });
});
