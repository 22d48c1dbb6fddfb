import { FakeClock } from "../runtime";
import { SessionTable } from "./httpSessions";

const MIN = 60_000;

function table(maxSessions = 10) {
  const clock = new FakeClock();
  return { clock, t: new SessionTable<string>({ clock, idleMs: 30 * MIN, maxSessions }) };
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

  it("at the cap, makes room by the least recently used idle session, one without a stream first", () => {
    const { clock, t } = table(3);
    t.add("old-listening", "1");
    t.begin("old-listening", "stream");
    clock.advance(MIN);
    t.add("old", "2");
    clock.advance(MIN);
    t.add("new", "3");
    expect(t.makeRoom()).toEqual({ evict: "old" });
    t.begin("old", "request");
    t.begin("new", "request");
    expect(t.makeRoom()).toEqual({ evict: "old-listening" });
    t.begin("old-listening", "request");
    expect(t.makeRoom()).toBeNull();
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
