import { parseConfig } from "../config/config";
import { createEngine, engineInternals } from "./engine";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";

function bigLog(seed: string, lines = 800): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`[${seed}] step ${i}: compiled module src/mod${i}.ts in ${i % 97} ms`);
  return out.join("\n") + "\n";
}

describe("engine: rescue, dedup and the ledger", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const make = (cfg: unknown = {}, clock = new FakeClock()) =>
    createEngine({ home: home.path, config: parseConfig(cfg), clock, logger: memoryLogger() });

  it("passes small results through untouched", async () => {
    const e = make();
    const r = e.transformToolResult({ sessionId: "s", tool: "echo", text: "hello" });
    expect(r).toMatchObject({ text: "hello", outcome: "passthrough", blobId: null });
    await e.close();
  });

  it("replaces a large result by a handle and keeps every byte", async () => {
    const e = make();
    const text = bigLog("a");
    const r = e.transformToolResult({ sessionId: "s", tool: "build", args: { target: "all" }, text });
    expect(r.outcome).toBe("rescued");
    expect(r.text.length).toBeLessThan(text.length / 3);
    expect(r.text).toContain(r.blobId!);
    expect(r.text).toMatch(/preview/i);
    expect(e.recall("s", r.blobId).text).toBe(text);
    await e.close();
  });

  it("stubs a byte-identical repeat in the same session, and recall returns the exact bytes", async () => {
    const e = make();
    const text = "x".repeat(1000) + "\nmid-size result that is still worth deduplicating\n" + "y".repeat(2000);
    const first = e.transformToolResult({ sessionId: "s", tool: "read", args: { p: 1 }, text });
    expect(first).toMatchObject({ outcome: "passthrough", text });
    const second = e.transformToolResult({ sessionId: "s", tool: "read", args: { p: 1 }, text });
    expect(second.outcome).toBe("stubbed");
    expect(second.text.split("\n")).toHaveLength(1);
    expect(second.text).toContain(`recall_result(result_id="${first.blobId}")`);
    expect(second.text).toContain("read");
    expect(e.recall("s", second.blobId).text).toBe(text);
    // another session has not seen it: full delivery there, and it cannot recall the first's id
    const other = e.transformToolResult({ sessionId: "t", tool: "read", args: { p: 1 }, text: text + "!" });
    expect(other.outcome).toBe("passthrough");
    expect(e.recall("t", first.blobId)).toMatchObject({ isError: true });
    expect(e.recall("t", first.blobId).text).toBe(
      `There is no stored result ${first.blobId} in this session: check the id in the handle or stub.`,
    );
    await e.close();
  });

  it("a repeat of a result the session got whole (no client held handles then) says it is in context, not that it was a preview", async () => {
    const e = make();
    const text = bigLog("w");
    const a = e.transformToolResult({ sessionId: "s", tool: "build", text, handles: false });
    expect(a.outcome).toBe("passthrough");
    expect(a.text).toBe(text);
    const b = e.transformToolResult({ sessionId: "s", tool: "build", text });
    expect(b).toMatchObject({ outcome: "stubbed", blobId: a.blobId });
    expect(b.text).toContain("already in your context");
    expect(b.text).not.toContain("preview");
    await e.close();
  });

  it("a repeat of a rescued result is a stub to the same blob, not a second handle", async () => {
    const e = make();
    const text = bigLog("b");
    const a = e.transformToolResult({ sessionId: "s", tool: "build", text });
    const b = e.transformToolResult({ sessionId: "s", tool: "build", text });
    expect(a.outcome).toBe("rescued");
    expect(b).toMatchObject({ outcome: "stubbed", blobId: a.blobId });
    // It was only ever a preview: the stub says so and names a read that answers.
    expect(b.text).not.toContain("already in your context");
    expect(b.text).toContain(`you were given a preview of it. Read it with rescuer_fetch(id="${a.blobId}"`);
    expect(b.text).toContain(`recall_result(result_id="${a.blobId}")`);
    expect(e.recall("s", b.blobId).text).toBe(text);
    // Past the cap of a whole read, recall_result would refuse: the stub does not offer it.
    const huge = Array.from({ length: 3_000 }, (_, i) => `step ${i}: compiled module m${i}.ts in ${i % 97} ms`).join("\n");
    e.transformToolResult({ sessionId: "s", tool: "build", args: { all: true }, text: huge });
    const again = e.transformToolResult({ sessionId: "s", tool: "build", args: { all: true }, text: huge });
    expect(huge.length).toBeGreaterThan(50_000);
    expect(again.outcome).toBe("stubbed");
    expect(again.text).toMatch(/Read it with rescuer_fetch\(id="[0-9a-f]{12}", mode=…\)\.\]$/);
    expect(again.text).not.toContain("recall_result");
    expect(e.fetch({ sessionId: "s", id: again.blobId, mode: "range", args: { start: 2999, count: 1 } }).text).toContain("step 2999:");
    await e.close();
  });

  it("never stubs below 2,000 chars, above 2,000,000 chars, or error results", async () => {
    const e = make();
    const small = "s".repeat(1999);
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: small }).outcome).toBe("passthrough");
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: small }).outcome).toBe("passthrough");
    const err = "E".repeat(3000);
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: err, isError: true }).outcome).toBe("passthrough");
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: err, isError: true }).outcome).toBe("passthrough");
    const huge = "h".repeat(2_000_001);
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: huge }).outcome).toBe("rescued");
    expect(e.transformToolResult({ sessionId: "s", tool: "t", text: huge }).outcome).toBe("rescued");
    await e.close();
  });

  it("the streak guard delivers in full after 5 consecutive stubs for the same call", async () => {
    const e = make();
    const text = "z".repeat(5000);
    const outcomes = Array.from(
      { length: 8 },
      () => e.transformToolResult({ sessionId: "s", tool: "poll", args: { b: 2, a: 1 }, text }).outcome,
    );
    expect(outcomes).toEqual(["passthrough", "stubbed", "stubbed", "stubbed", "stubbed", "stubbed", "passthrough", "stubbed"]);
    await e.close();
  });

  it("canonical arguments: key order does not matter, array order does", async () => {
    const e = make({ dedup: { maxStubStreak: 1 } });
    const text = "q".repeat(5000);
    e.transformToolResult({ sessionId: "s", tool: "t", args: { a: 1, b: [1, 2] }, text });
    expect(e.transformToolResult({ sessionId: "s", tool: "t", args: { b: [1, 2], a: 1 }, text }).outcome).toBe("stubbed");
    // same key again: streak of 1 reached, so the next one is delivered in full
    expect(e.transformToolResult({ sessionId: "s", tool: "t", args: { b: [1, 2], a: 1 }, text }).outcome).toBe("passthrough");
    // a different array order is a different key with its own streak: stubbed (content already held)
    expect(e.transformToolResult({ sessionId: "s", tool: "t", args: { a: 1, b: [2, 1] }, text }).outcome).toBe("stubbed");
    await e.close();
  });

  it("a changed result resets the streak", async () => {
    const e = make({ dedup: { maxStubStreak: 2 } });
    const a = "a".repeat(4000);
    const b = "b".repeat(4000);
    const call = (text: string) => e.transformToolResult({ sessionId: "s", tool: "poll", args: {}, text }).outcome;
    expect([call(a), call(a), call(a), call(b), call(a), call(a)]).toEqual([
      "passthrough",
      "stubbed",
      "stubbed",
      "passthrough",
      "stubbed",
      "stubbed",
    ]);
    await e.close();
  });

  it("after a compaction each result is delivered in full once more, then stubbing resumes", async () => {
    const e = make();
    const text = "c".repeat(6000);
    const call = () => e.transformToolResult({ sessionId: "s", tool: "cat", args: {}, text }).outcome;
    expect([call(), call()]).toEqual(["passthrough", "stubbed"]);
    e.compaction("s");
    expect([call(), call()]).toEqual(["passthrough", "stubbed"]);
    await e.close();
  });

  it("answers an unknown or malformed id with a clear sentence", async () => {
    const e = make();
    expect(e.recall("s", "0123456789ab")).toMatchObject({ isError: true });
    expect(e.recall("s", "0123456789ab").text).toMatch(/no stored result 0123456789ab/);
    expect(e.recall("s", "nope").text).toMatch(/not a valid result id/);
    await e.close();
  });

  it("a swept result answers with the source tool and re-run guidance", async () => {
    const clock = new FakeClock();
    const e = make({}, clock);
    const r = e.transformToolResult({ sessionId: "s", tool: "list_issues", text: bigLog("c") });
    clock.advance(73 * 3_600_000);
    e.sweep();
    const answer = e.recall("s", r.blobId);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/list_issues.*expired.*re-run list_issues/);
    await e.close();
  });

  it("fails open: if the store breaks, the model gets the raw result and the failure is logged", async () => {
    const logger = memoryLogger();
    const e = createEngine({ home: home.path, logger });
    engineInternals(e).store.db.close();
    const text = bigLog("d");
    const r = e.transformToolResult({ sessionId: "s", tool: "build", text });
    expect(r).toMatchObject({ text, outcome: "failed_open" });
    expect(logger.entries.some((l) => l.level === "error" && /raw result/.test(l.msg))).toBe(true);
  });

  it("search works right after a rescue (before background indexing ends) and after it, and the index counts toward the cap", async () => {
    const e = make();
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 2222 ? "the payment gateway timed out for order 77" : `order ${i} shipped to warehouse ${i % 13}`,
    );
    const r = e.transformToolResult({ sessionId: "s", tool: "orders", text: lines.join("\n") });
    const now = e.fetch({ sessionId: "s", id: r.blobId, mode: "search", args: { query: "gateway timed out" } });
    expect(now.isError).toBe(false);
    expect(now.text).toContain("gateway timed out");
    await e.idle();
    const later = e.fetch({ sessionId: "s", id: r.blobId, mode: "search", args: { query: "gateway timed out" } });
    expect(later.text).toContain("gateway timed out");
    expect(engineInternals(e).store.row(r.blobId!)!.sidecar_bytes).toBeGreaterThan(0);
    await e.close();
  });

  it("a rescue that fills the store is answered first; the least recently used results are evicted once it is", async () => {
    const clock = new FakeClock();
    const e = make({ store: { maxStoreMb: 1 } }, clock);
    const store = engineInternals(e).store;
    const events: string[] = [];
    e.onEvent((ev) => events.push(ev.type));
    const ids: string[] = [];
    // Six results of 68 KB, each about 145 KB with its line and search indexes: 0.85 of the cap.
    for (let i = 0; i < 6; i++) {
      ids.push(e.transformToolResult({ sessionId: "s", tool: "build", args: { i }, text: bigLog(`fill${i}`, 1200) }).blobId!);
      await e.idle();
      clock.advance(60_000); // least recently used: an order of access times
    }
    expect(store.usedBytes()).toBeLessThanOrEqual(store.capBytes());
    const live = () => ids.filter((id) => store.row(id)?.tombstoned_at === null);
    const before = live();
    expect(before).toEqual(ids);
    events.length = 0;
    // The call that crosses the cap returns with every earlier result still live …
    const crossing = bigLog("crossing", Math.ceil((store.capBytes() - store.usedBytes() + 20_000) / 50));
    const r = e.transformToolResult({ sessionId: "s", tool: "build", args: { i: 6 }, text: crossing });
    expect(r.outcome).toBe("rescued");
    expect(live()).toEqual(before);
    expect(store.usedBytes()).toBeGreaterThan(store.capBytes());
    expect(events).not.toContain("sweep");
    // … and once the engine is idle the store is back under its cap, oldest first, the new one kept.
    await e.idle();
    expect(store.usedBytes()).toBeLessThanOrEqual(store.capBytes());
    expect(store.row(r.blobId!)!.tombstoned_at).toBeNull();
    expect(live()).not.toContain(before[0]);
    expect(events).toContain("sweep");
    expect(store.read(r.blobId!)).toBe(crossing);
    await e.close();
  });

  it("the handle's size and line count agree with stat and range on each fixture kind", async () => {
    const e = make();
    const { readFileSync, readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const root = join(import.meta.dirname, "..", "..", "tests", "fixtures");
    for (const kind of ["json", "log", "csv", "html", "ndjson", "markdown", "xml"]) {
      for (const name of readdirSync(join(root, kind))) {
        const text = readFileSync(join(root, kind, name), "utf8");
        if (text.length <= 12_000) continue;
        const r = e.transformToolResult({ sessionId: "s", tool: `read_${kind}`, args: { name }, text });
        const header = r.text.split("\n")[0]!;
        expect(header, name).toMatch(/— ([\d,]+) chars, ([\d,]+) lines?/);
        const [, chars, lines] = header.match(/— ([\d,]+) chars, ([\d,]+) lines?/)!;
        const n = (x: string) => Number(x.replace(/,/g, ""));
        expect(n(chars!), name).toBe(text.length);
        const stat = e.fetch({ sessionId: "s", id: r.blobId, mode: "stat" }).text;
        expect(stat).toContain(`${chars} chars`);
        expect(stat).toContain(`lines: ${lines} (numbered 0–${n(lines!) - 1})`);
        const last = e.fetch({ sessionId: "s", id: r.blobId, mode: "range", args: { start: n(lines!) - 1, count: 5 } });
        expect(last.isError, last.text).toBe(false);
        expect(e.fetch({ sessionId: "s", id: r.blobId, mode: "range", args: { start: n(lines!), count: 5 } }).isError).toBe(true);
      }
    }
    await e.close();
  });

  it("never rescues Spillway's own tools", async () => {
    const e = make();
    const text = bigLog("e");
    expect(e.transformToolResult({ sessionId: "s", tool: "rescuer_fetch", text }).text).toBe(text);
    await e.close();
  });

  it("honours per-tool exclude, include and thresholds", async () => {
    const e = make({ rescue: { excludeTools: ["secret_*"], toolThresholds: { "tiny_*": 500 } } });
    expect(e.transformToolResult({ sessionId: "s", tool: "secret_dump", text: bigLog("f") }).outcome).toBe("passthrough");
    expect(e.transformToolResult({ sessionId: "s", tool: "tiny_tool", text: "t".repeat(600) }).outcome).toBe("rescued");
    await e.close();
  });
});

describe("engine: savings", () => {
  it("counts chars and real tokens returned, given and pulled back, per session, tool and day", async () => {
    const home = tempHome();
    const e = createEngine({ home: home.path, clock: new FakeClock(Date.UTC(2026, 10, 30, 12)), logger: memoryLogger() });
    const text = bigLog("g", 2000);
    const r = e.transformToolResult({ sessionId: "s1", tool: "build", server: "ci", text });
    e.transformToolResult({ sessionId: "s1", tool: "build", server: "ci", text });
    const recall = e.fetch({ sessionId: "s1", id: r.blobId, mode: "range", args: { start: 0, count: 40 } });
    expect(recall.isError).toBe(false);
    await e.idle();
    const total = e.savings("total")[0]!;
    const given = r.text.length + engineInternals(e).ledger.callsOfSession("s1")[1]!.given_chars;
    expect(total.returnedChars).toBe(text.length * 2);
    expect(total.givenChars).toBe(given);
    expect(total.pulledChars).toBe(recall.text.length);
    expect(total.netChars).toBe(text.length * 2 - given - recall.text.length);
    // real BPE counts: far fewer tokens than chars, and not chars/4
    // large texts are counted in slices off the hot path: equal to the one-shot count within 0.1 %
    const exact = 2 * engineInternals(e).tokens.count(text);
    expect(Math.abs(total.returnedTokens - exact)).toBeLessThanOrEqual(exact / 1000);
    expect(total.returnedTokens).not.toBe(Math.round((text.length * 2) / 4));
    expect(total.pendingTokenCounts).toBe(0);
    expect(e.savings("day").map((d) => d.key)).toEqual(["2026-11-30"]);
    expect(e.savings("tool")[0]!.key).toBe("build");
    expect(e.savings("server")[0]!.key).toBe("ci");
    expect(e.savings("session")[0]!).toMatchObject({ key: "s1", rescued: 1, stubbed: 1 });
    await e.close();
    home.cleanup();
  });
});

describe("engine: labels found off the hot path", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("labels a rescued result with personal data as personal once background work is done, with a label event saying why", async () => {
    const e = createEngine({ home: home.path, logger: memoryLogger() });
    const people = ["ana.lima@acme-corp.io", "b.okafor@acme-corp.io", "chen.wei@acme-corp.io"];
    const text = bigLog("crm") + people.map((p, i) => `contact ${i}: ${p}\n`).join("");
    const r = e.transformToolResult({ sessionId: "s", tool: "crm_export", text });
    expect(r.outcome).toBe("rescued");
    await e.idle();
    expect(e.reader.meta(r.blobId!)!.label).toBe("personal");
    const label = e.reader.recentEvents(20).find((ev) => ev.type === "label" && ev.blobId === r.blobId);
    expect(label).toMatchObject({ sessionId: "s", tool: "crm_export" });
    expect(JSON.stringify(label)).toContain("3 e-mail addresses");
    // a result without personal data stays public, with no label event
    const plain = e.transformToolResult({ sessionId: "s", tool: "build", text: bigLog("plain") });
    await e.idle();
    expect(e.reader.meta(plain.blobId!)!.label).toBe("public");
    expect(e.reader.recentEvents(50).some((ev) => ev.type === "label" && ev.blobId === plain.blobId)).toBe(false);
    await e.close();
  });
});

describe("engine: label events of a stored result", () => {
  it("says what a new result was labelled, and what a repeat raised its stored copy from and to", async () => {
    const home = tempHome();
    const config = parseConfig({ sensitivity: { toolLabels: { read_vault: "credential" } } });
    const e = createEngine({ home: home.path, config, logger: memoryLogger() });
    const labels = () =>
      e.reader
        .recentEvents(50)
        .filter((ev) => ev.type === "label")
        .map((ev) => ({ blobId: ev.blobId, data: ev.data }));
    // public when first stored: no label event
    const text = bigLog("vault");
    const first = e.transformToolResult({ sessionId: "s", tool: "read_file", args: { p: 1 }, text });
    expect(first.outcome).toBe("rescued");
    expect(labels()).toEqual([]);
    // the same content from a tool labelled credential: its stored copy is raised, from public
    const again = e.transformToolResult({ sessionId: "s2", tool: "read_vault", args: {}, text });
    expect(again.blobId).toBe(first.blobId);
    expect(e.reader.meta(first.blobId!)!.label).toBe("credential");
    expect(labels()).toEqual([{ blobId: first.blobId, data: expect.objectContaining({ from: "public", to: "credential" }) }]);
    // a new result labelled at once: the event names only what it became
    const fresh = e.transformToolResult({ sessionId: "s", tool: "read_vault", args: { k: 2 }, text: bigLog("other") });
    const own = labels().filter((l) => l.blobId === fresh.blobId);
    expect(own).toHaveLength(1);
    expect(own[0]!.data).toMatchObject({ to: "credential" });
    expect(own[0]!.data).not.toHaveProperty("from");
    await e.close();
    home.cleanup();
  });
});
