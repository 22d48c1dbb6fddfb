import { describe, expect, it, vi } from "vitest";
import type { EngineEvent, Pushed } from "../../core/inspector/api/contract";
import { pushEvents } from "./pushEvents";

describe("pushed events", () => {
  it("forwards engine events, endpoint changes and ledger growth from other processes", () => {
    vi.useFakeTimers();
    try {
      let engineListener: ((e: EngineEvent) => void) | null = null;
      let ledger = 10;
      const sent: Pushed[] = [];
      const stop = pushEvents(
        { onEngineEvent: (l) => ((engineListener = l), () => (engineListener = null)), lastLedgerId: () => ledger },
        (p) => sent.push(p),
        1000,
      );
      // An event of this process's own engine moves the mark: no "ledger" nudge for it.
      ledger = 11;
      engineListener!({ type: "sweep", expired: 1, evicted: 0 });
      vi.advanceTimersByTime(1000);
      ledger = 12;
      vi.advanceTimersByTime(1000);
      vi.advanceTimersByTime(1000);
      expect(sent).toEqual([
        { event: "engine", data: { type: "sweep", expired: 1, evicted: 0 } },
        { event: "ledger", data: { lastEventId: 12 } },
      ]);
      stop();
      expect(engineListener).toBeNull();
      ledger = 13;
      vi.advanceTimersByTime(5000);
      expect(sent).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("survives a send to a window that has gone", () => {
    let l: ((e: EngineEvent) => void) | null = null;
    const stop = pushEvents({ onEngineEvent: (x) => ((l = x), () => {}), lastLedgerId: () => 0 }, () => {
      throw new Error("Object has been destroyed");
    });
    expect(() => l!({ type: "sweep", expired: 0, evicted: 0 })).not.toThrow();
    stop();
  });
});
