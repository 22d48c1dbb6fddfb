import { describe, expect, it, vi } from "vitest";
import { batchInvalidation, staleOps } from "./invalidation";

describe("invalidation", () => {
  it("a new call refreshes the overview, sessions and blobs, not the settings", () => {
    const ops = staleOps({
      event: "engine",
      data: { type: "call", sessionId: "s", callId: 1, outcome: "rescued", blobId: "0123456789ab" },
    });
    expect(ops).toEqual(expect.arrayContaining(["overview.get", "sessions.list", "sessions.timeline", "blobs.list"]));
    expect(ops).not.toContain("config.get");
  });

  it("a pin or purge refreshes every blob read, including open contents and search", () => {
    const ops = staleOps({ event: "engine", data: { type: "blob", blobId: "0123456789ab", change: "purged" } });
    expect(ops).toEqual(expect.arrayContaining(["blobs.list", "blobs.get", "blobs.content", "search.all", "overview.get"]));
  });

  it("maps endpoint and config events to their own views", () => {
    expect(staleOps({ event: "config", data: { savedAt: 1 } })).toEqual(["config.get"]);
    expect(staleOps({ event: "ledger", data: { lastEventId: 9 } })).toContain("sessions.timeline");
  });

  it("coalesces a burst into one refresh", () => {
    vi.useFakeTimers();
    const apply = vi.fn();
    const push = batchInvalidation(apply, 100);
    for (let i = 0; i < 50; i++) push(["overview.get", "blobs.list"]);
    vi.advanceTimersByTime(150);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply.mock.calls[0]![0]).toEqual(["overview.get", "blobs.list"]);
    vi.useRealTimers();
  });
});
