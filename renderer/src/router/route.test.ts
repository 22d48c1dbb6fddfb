import { describe, expect, it } from "vitest";
import { formatRoute, parseRoute, sectionOf, type Route } from "./route";

describe("routes", () => {
  it("round-trips every route", () => {
    const routes: Route[] = [
      { name: "overview" },
      { name: "sessions" },
      { name: "session", id: "mcp-http:3f2a/9" },
      { name: "session", id: "3f2a", call: 17 },
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

  it("maps detail pages to their section", () => {
    expect(sectionOf({ name: "blob", id: "x" })).toBe("blobs");
    expect(sectionOf({ name: "session", id: "x" })).toBe("sessions");
  });
});
