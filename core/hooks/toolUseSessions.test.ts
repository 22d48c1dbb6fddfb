import { CLAUDE_TOOL_USE_META, ToolUseSessions } from "./toolUseSessions";

describe("ToolUseSessions", () => {
  it("answers the session that announced a tool-use id, once, from a tools/call _meta", () => {
    const t = new ToolUseSessions();
    t.record("toolu_1", "session-a");
    expect(t.fromMeta({ [CLAUDE_TOOL_USE_META]: "toolu_1", progressToken: 3 })).toBe("session-a");
    expect(t.fromMeta({ [CLAUDE_TOOL_USE_META]: "toolu_1" })).toBeNull();
    expect(t.fromMeta(undefined)).toBeNull();
    expect(t.fromMeta({ [CLAUDE_TOOL_USE_META]: 7 })).toBeNull();
  });

  it("forgets pairs past their time and beyond its size", () => {
    let now = 1_000;
    const t = new ToolUseSessions({ max: 2, ttlMs: 100, now: () => now });
    t.record("a", "s1");
    now += 101;
    expect(t.take("a")).toBeNull();
    t.record("b", "s2");
    t.record("c", "s3");
    t.record("d", "s4");
    expect(t.take("b")).toBeNull();
    expect(t.take("c")).toBe("s3");
    expect(t.take("d")).toBe("s4");
  });

  it("counts a client as there only while one of its sessions is connected, and forgets closed ones", () => {
    const t = new ToolUseSessions();
    let a = false;
    let b = false;
    const closeA = t.clientOpened("claude-code", () => a);
    const closeB = t.clientOpened("claude-code", () => b);
    expect(t.clientOpen("claude-code")).toBe(false);
    b = true;
    expect(t.clientOpen("claude-code")).toBe(true);
    expect(t.clientOpen("codex")).toBe(false);
    closeB();
    closeB();
    expect(t.clientOpen("claude-code")).toBe(false);
    a = true;
    expect(t.clientOpen("claude-code")).toBe(true);
    closeA();
    expect(t.clientOpen("claude-code")).toBe(false);
  });
});
