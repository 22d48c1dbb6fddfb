import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SessionEventStore } from "./httpEventStore";

const note = (n: number, pad = 0): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { n, pad: "x".repeat(pad) },
});

async function replay(s: SessionEventStore, after: string): Promise<{ stream: string; got: unknown[] }> {
  const got: unknown[] = [];
  const stream = await s.replayEventsAfter(after, {
    send: async (_id, m) => void got.push((m as unknown as { params: { n: number } }).params.n),
  });
  return { stream, got };
}

describe("SessionEventStore", () => {
  it("replays what came after an id on that id's stream only", async () => {
    const s = new SessionEventStore({ maxChars: 1 << 20, maxEvents: 100 });
    const a1 = await s.storeEvent("A", note(1));
    await s.storeEvent("B", note(2));
    await s.storeEvent("A", note(3));
    expect(await s.getStreamIdForEventId(a1)).toBe("A");
    expect(await replay(s, a1)).toEqual({ stream: "A", got: [3] });
  });

  it("calls an id of another store foreign, even with the same sequence number", async () => {
    const mine = new SessionEventStore({ maxChars: 1 << 20, maxEvents: 100 });
    const theirs = new SessionEventStore({ maxChars: 1 << 20, maxEvents: 100 });
    await mine.storeEvent("A", note(1));
    const id = await theirs.storeEvent("A", note(1));
    expect(mine.check(id)).toBe("foreign");
    expect(await mine.getStreamIdForEventId(id)).toBeUndefined();
    expect(mine.check("not-an-id")).toBe("foreign");
    // A made-up number past the last event is not ours either.
    expect(mine.check(id.replace(/-\d+$/, "-99"))).toBe("foreign");
  });

  it("drops the oldest past the size or count cap, keeps the newest even when alone over it, and calls dropped ids expired", async () => {
    const s = new SessionEventStore({ maxChars: 1_000, maxEvents: 3 });
    const first = await s.storeEvent("A", note(1));
    for (let i = 2; i <= 4; i++) await s.storeEvent("A", note(i));
    expect(s.size.events).toBe(3);
    expect(s.check(first)).toBe("expired");
    const big = await s.storeEvent("A", note(5, 5_000));
    expect(s.size.events).toBe(1);
    expect(s.check(big)).toBe("ok");
  });
});
