import { FakeClock } from "../runtime";
import { SessionTable } from "./httpSessions";

const MIN = 60_000;

const GRACE = 2 * MIN;

/** A table whose values are session names; `owing` holds the names whose clients are still owed answers. */
function table(maxSessions = 10) {
  const clock = new FakeClock();
  const owing = new Set<string>();
  const t = new SessionTable<string>({ clock, idleMs: 30 * MIN, maxSessions, graceMs: GRACE, owes: (v) => owing.has(v) });
  return { clock, t, owing };
}

describe("SessionTable", () => {
  it("calls a session idle only after the timeout, counted from its last request's end", () => {
    const { clock, t } = table();
    t.add("a", "A");
    t.add("b", "B");
    clock.advance(20 * MIN);
    const done = t.begin("b", "request");
    clock.advance(5 * MIN);
    done();
    clock.advance(10 * MIN);
    expect(t.idle()).toEqual(["a"]);
    clock.advance(20 * MIN);
    expect(t.idle()).toEqual(["a", "b"]);
  });

  it("never calls a session with a request in flight or an open stream idle", () => {
    const { clock, t } = table();
    t.add("busy", "x");
    t.add("listening", "y");
    t.begin("busy", "request");
    const closeStream = t.begin("listening", "stream");
    clock.advance(120 * MIN);
    expect(t.idle()).toEqual([]);
    closeStream();
    clock.advance(31 * MIN);
    expect(t.idle()).toEqual(["listening"]);
  });

  it("at the cap, makes room by the least recently used session nothing holds, never one with an open stream", () => {
    const { clock, t } = table(3);
    t.add("old-listening", "1");
    const hangUp = t.begin("old-listening", "stream");
    clock.advance(MIN);
    t.add("old", "2");
    clock.advance(MIN);
    t.add("new", "3");
    expect(t.makeRoom()).toEqual({ evict: "old" });
    t.begin("old", "request");
    t.begin("new", "request");
    expect(t.makeRoom()).toBeNull();
    expect(t.holds()).toEqual({ request: 2, stream: 1, owed: 0 });
    hangUp();
    expect(t.makeRoom()).toEqual({ evict: "old-listening" });
  });

  it("holds a session whose client is owed answers, for the grace period after its client was last seen", () => {
    const { clock, t, owing } = table(2);
    t.add("polling", "P");
    t.add("idle", "I");
    // The polling client's stream was closed, its call still runs; it was seen last, so LRU alone would pick it next.
    clock.advance(MIN);
    t.begin("idle", "request")();
    clock.advance(MIN);
    t.begin("polling", "request")();
    owing.add("P");
    expect(t.makeRoom()).toEqual({ evict: "idle" });
    t.begin("idle", "request");
    expect(t.makeRoom()).toBeNull();
    expect(t.holds()).toEqual({ request: 1, stream: 0, owed: 1 });
    // A poll (a resume that came and went) counts as being seen: the grace starts again.
    clock.advance(GRACE - 1);
    t.begin("polling", "stream")();
    clock.advance(GRACE - 1);
    expect(t.makeRoom()).toBeNull();
    // A client that never comes back pins its slot no longer than the grace.
    clock.advance(1);
    expect(t.makeRoom()).toEqual({ evict: "polling" });
  });

  it("holds a session that has nothing owed no more than any other", () => {
    const { clock, t, owing } = table(2);
    t.add("a", "A");
    t.add("b", "B");
    owing.add("A");
    clock.advance(MIN);
    expect(t.makeRoom()).toEqual({ evict: "b" });
    owing.delete("A"); // the client collected its answer
    expect(t.makeRoom()).toEqual({ evict: "a" });
  });

  it("never reaps a session whose client is owed answers within the grace, even past the idle timeout", () => {
    const clock = new FakeClock();
    const t = new SessionTable<string>({ clock, idleMs: MIN, maxSessions: 10, graceMs: 10 * MIN, owes: (v) => v === "owed" });
    t.add("a", "owed");
    t.add("b", "free");
    clock.advance(2 * MIN);
    expect(t.idle()).toEqual(["b"]);
    clock.advance(8 * MIN);
    expect(t.idle()).toEqual(["a", "b"]);
  });

  it("has room without evicting under the cap, and remembers why a session ended", () => {
    const { t } = table(2);
    t.add("a", "A");
    expect(t.makeRoom()).toEqual({ evict: null });
    t.delete("a", "idle");
    expect(t.get("a")).toBeUndefined();
    expect(t.endReason("a")).toBe("idle");
    t.add("b", "B");
    t.delete("b");
    expect(t.endReason("b")).toBeUndefined();
  });
});
