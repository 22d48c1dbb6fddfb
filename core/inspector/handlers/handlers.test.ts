import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLog, inspectorFixture, SECRET_TEXT, type Fixture } from "../../../tests/helpers/inspectorFixture";
import { requestSchemas, type OpName, type ParsedReq } from "../api/contract";
import { engineInternals } from "../../engine/engine";

describe("inspector handlers over a real engine", () => {
  let f: Fixture;
  beforeEach(async () => (f = await inspectorFixture()));
  afterEach(() => f.close());
  const call = <K extends OpName>(op: K, req: unknown) => f.handlers[op](requestSchemas[op].parse(req) as ParsedReq<K>);

  it("overview figures are the ledger's savings, grouped the same way", async () => {
    const ov = await call("overview.get", {});
    expect(ov.total).toEqual(f.engine.savings("total")[0]);
    expect(ov.byTool).toEqual(f.engine.savings("tool"));
    expect(ov.byDay).toEqual(f.engine.savings("day"));
    expect(ov.byHour).toHaveLength(48);
    expect(ov.byHour.reduce((a, h) => a + h.netTokens, 0)).toBe(ov.total.netTokens);
    expect(ov.byHour.reduce((a, h) => a + h.calls, 0)).toBe(ov.total.calls);
    expect(ov.store).toMatchObject({ live: 2, pinned: 0, tombstoned: 0, encrypted: 1, sessions: 2, calls: 4 });
    expect(ov.total.rescued).toBe(2);
    expect(ov.total.stubbed).toBe(1);
    expect(ov.recent[0]!.type).toBeDefined();
  });

  it("lists blobs filtered, sorted and paged on the server", async () => {
    const all = await call("blobs.list", {});
    expect(all.total).toBe(2);
    const bySize = await call("blobs.list", { sort: { by: "chars", dir: "asc" } });
    expect(bySize.rows.map((r) => r.id)).toEqual([f.secretId, f.logId]);
    expect((await call("blobs.list", { filter: { tool: "build" } })).rows.map((r) => r.id)).toEqual([f.logId]);
    expect((await call("blobs.list", { filter: { labels: ["credential"] } })).rows.map((r) => r.id)).toEqual([f.secretId]);
    expect((await call("blobs.list", { filter: { text: "%" } })).total).toBe(0);
    const page = await call("blobs.list", { offset: 1, limit: 1, sort: { by: "chars", dir: "asc" } });
    expect(page).toMatchObject({ total: 2, offset: 1, rows: [{ id: f.logId }] });
    const facets = await call("blobs.facets", {});
    expect(facets.tools).toEqual(["read_env", "run_build"]);
  });

  it("gives the handle the model saw and the lineage of a blob", async () => {
    const d = await call("blobs.get", { id: f.logId });
    expect(d.handle?.text).toContain(f.logId);
    expect(d.handle?.text).toMatch(/preview/i);
    expect(d.lineage.producedBy).toMatchObject({ tool: "run_build", outcome: "rescued", sessionId: "sess-a" });
    expect(d.lineage.calls.map((c) => c.outcome)).toEqual(["rescued", "stubbed"]);
    expect(d.lineage.heldBy.map((h) => h.sessionId)).toEqual(["sess-a"]);
    expect(d.lineage.events).toEqual([
      expect.objectContaining({ type: "fetch", sessionId: "sess-a", data: expect.objectContaining({ mode: "grep" }) }),
    ]);
    expect(d.maskable).toBe(false);
    expect((await call("blobs.get", { id: f.secretId })).maskable).toBe(true);
  });

  it("says whether a credential label came from the call's arguments or from the result's content", async () => {
    const r = f.engine.transformToolResult({
      sessionId: "sess-a",
      tool: "run_query",
      args: { dsn: "db.internal", password: "hunter2-correct-horse" },
      text: buildLog(2_000),
    });
    await f.engine.idle();
    const byArgs = await call("blobs.get", { id: r.blobId! });
    expect(byArgs.meta.label).toBe("credential");
    expect(byArgs.labelOrigin).toMatchObject({
      label: "credential",
      sources: ["arguments"],
      reasons: [expect.stringMatching(/^arguments hold /)],
    });
    const byContent = await call("blobs.get", { id: f.secretId });
    expect(byContent.labelOrigin).toMatchObject({ label: "credential", sources: ["content"] });
    expect((await call("blobs.get", { id: f.logId })).labelOrigin).toBeNull();
  });

  it("pages content by lines, masks credential blobs unless revealed", async () => {
    const p = await call("blobs.content", { id: f.logId, start: 1230, count: 10 });
    expect(p).toMatchObject({ by: "lines", start: 1230, end: 1240, firstLine: 1230, totalLines: 3000, masked: false });
    expect(p.text.split("\n")[4]).toBe("ERROR: linker failed: undefined symbol frobnicate_widget");
    const masked = await call("blobs.content", { id: f.secretId, start: 0, count: 10 });
    expect(masked.masked).toBe(true);
    expect(masked.text).toContain("[masked:github_token]");
    expect(masked.text).not.toContain("ghp_8fK2");
    const revealed = await call("blobs.content", { id: f.secretId, masked: false, by: "chars", start: 0, count: 4_000_000 });
    expect(revealed.text).toBe(SECRET_TEXT);
  });

  it("runs fetch modes by hand with places to jump to", async () => {
    const g = await call("fetch.run", { id: f.logId, mode: "grep", args: { pattern: "linker\\s+failed" } });
    expect(g.isError).toBe(false);
    expect(g.text).toContain("L1234");
    expect(g.jumps).toEqual([expect.objectContaining({ line: 1234, startCol: 7, endCol: 20 })]);
    const r = await call("fetch.run", { id: f.logId, mode: "range", args: { start: 2000, count: 3 } });
    expect(r.jumps[0]!.line).toBe(2000);
    const s = await call("fetch.run", { id: f.logId, mode: "search", args: { query: "frobnicate widget" } });
    expect(s.jumps[0]!.line).toBeLessThanOrEqual(1234);
    const bad = await call("fetch.run", { id: f.logId, mode: "grep", args: { pattern: "(" } });
    expect(bad.isError).toBe(true);
    expect(bad.jumps).toEqual([]);
  });

  it("searches across every stored result", async () => {
    await f.engine.idle();
    const r = await call("search.all", { query: "frobnicate" });
    expect(r.hits[0]).toMatchObject({ blobId: f.logId, tool: "run_build" });
    expect(r.hits[0]!.startLine).toBeLessThanOrEqual(1234);
    // Within a filter: the build log is public, so a search among credential blobs finds none of it.
    const secrets = await call("search.all", { query: "frobnicate deploy", filter: { labels: ["credential"] } });
    expect(secrets.hits.map((h) => h.blobId)).toEqual([f.secretId]);
    expect((await call("search.all", { query: "frobnicate", filter: { tool: "run_build" } })).hits[0]).toMatchObject({ blobId: f.logId });
  });

  it("pin, unpin and purge change the state everywhere", async () => {
    expect(await call("blobs.pin", { ids: [f.logId, "0123456789ab"] })).toEqual({ changed: [f.logId] });
    expect((await call("blobs.list", { filter: { states: ["pinned"] } })).rows.map((r) => r.id)).toEqual([f.logId]);
    expect((await call("overview.get", {})).store.pinned).toBe(1);
    await call("blobs.unpin", { ids: [f.logId] });
    expect((await call("blobs.get", { id: f.logId })).meta.state).toBe("live");
    expect(await call("blobs.purge", { ids: [f.logId] })).toEqual({ changed: [f.logId] });
    const d = await call("blobs.get", { id: f.logId });
    expect(d.meta).toMatchObject({ state: "tombstoned", tombstoneReason: "purged" });
    expect(d.lineage.events.map((e) => e.type)).toContain("purge");
    expect(() => call("blobs.content", { id: f.logId })).toThrow(/tombstone/);
  });

  it("builds sessions and their timelines from the ledger", async () => {
    const list = await call("sessions.list", {});
    const a = list.rows.find((s) => s.id === "sess-a")!;
    expect(a).toMatchObject({ calls: 3, rescued: 1, stubbed: 1, fetches: 1, blobs: 1 });
    const byId = Object.fromEntries(f.engine.savings("session").map((s) => [s.key, s]));
    expect(a.netTokens).toBe(byId["sess-a"]!.netTokens);
    const t = await call("sessions.timeline", { sessionId: "sess-a" });
    expect(t.calls.map((c) => c.outcome)).toEqual(["rescued", "stubbed", "passthrough"]);
    // the grep came after the stub, so it belongs to the latest call that returned the blob
    expect(t.calls.map((c) => c.reads.count)).toEqual([0, 1, 0]);
    const [rescued, stubbed, small] = await Promise.all(t.calls.map((c) => call("calls.get", { callId: c.id })));
    expect(rescued!.raw).toMatchObject({ source: "blob", truncated: true, totalChars: rescued!.call.returnedChars });
    expect(rescued!.raw.text.startsWith("step 0: compiled")).toBe(true);
    expect(rescued!.given.text).toContain(f.logId);
    expect(stubbed!.given.text).toContain(`rescuer_fetch(id="${f.logId}"`);
    expect(small!.given.text).toBe("small result");
    expect(stubbed!.reads.map((e) => e.type)).toEqual(["fetch"]);
    // the answer the model got from that grep, kept with the ledger
    expect(stubbed!.reads[0]!.answer?.text).toContain("ERROR: linker failed");
    expect(rescued!.reads).toEqual([]);
    const paged = await call("sessions.timeline", { sessionId: "sess-a", limit: 2 });
    expect(paged.nextAfter).toBe(paged.calls[1]!.id);
    expect(() => call("sessions.timeline", { sessionId: "nobody" })).toThrow(/no session/);
  });

  it("filters a session's calls on the server", async () => {
    const r = await call("calls.find", { sessionId: "sess-a", outcome: "stubbed" });
    expect(r).toMatchObject({ matched: 1, total: 3, nextAfter: null, calls: [{ outcome: "stubbed" }] });
    expect((await call("calls.find", { sessionId: "sess-a", text: "small" })).calls).toEqual([]);
    expect(() => call("calls.find", { sessionId: "sess-a", outcome: "lost" })).toThrow();
    expect(() => call("calls.find", { sessionId: "nobody" })).toThrow(/no session/);
  });

  it("exports through the host and reports the endpoint it was given", async () => {
    expect(await call("blobs.export", { id: f.secretId })).toMatchObject({
      kind: "download",
      href: `/x/${f.secretId}?m=true`,
      filename: `read_env-${f.secretId}.txt`,
    });
    expect(await call("endpoint.status", {})).toMatchObject({ running: false, canControl: false });
    await expect(call("endpoint.stop", {})).rejects.toThrow(/served by the endpoint itself/);
    expect(await call("connect.snippets", {})).toEqual([]);
  });
});

describe("opening a large blob", () => {
  it("serves the first window from the head of the file, then the rest from the whole text", async () => {
    const f = await inspectorFixture();
    try {
      const lines = Array.from({ length: 120_000 }, (_, i) => `line ${i} ${"x".repeat(70)}`);
      const text = lines.join("\n") + "\n";
      const { meta } = engineInternals(f.engine).store.put(text, {
        tool: "t",
        sessionId: "s",
        kind: "log",
        shape: "log",
        lines: lines.length,
        label: "public",
      });
      const req = (start: number, count: number) => requestSchemas["blobs.content"].parse({ id: meta.id, start, count });
      const first = await f.handlers["blobs.content"](req(0, 3));
      expect(first).toMatchObject({ start: 0, end: 3, totalLines: 120_000, totalChars: text.length, text: lines.slice(0, 3).join("\n") });
      await new Promise((r) => setImmediate(r));
      const far = await f.handlers["blobs.content"](req(119_998, 5));
      expect(far).toMatchObject({ start: 119_998, end: 120_000, text: lines.slice(119_998).join("\n") });
    } finally {
      await f.close();
    }
  });
});

describe("a damaged blob in the inspector", () => {
  it("is never shown: even the first page read from the head of its file says why, in a sentence", async () => {
    const f = await inspectorFixture();
    try {
      const lines = Array.from({ length: 120_000 }, (_, i) => `line ${i} ${"x".repeat(70)}`);
      const text = lines.join("\n") + "\n";
      const { meta } = engineInternals(f.engine).store.put(text, {
        tool: "t",
        sessionId: "s",
        kind: "log",
        shape: "log",
        lines: lines.length,
        label: "public",
      });
      // one flipped byte in the first line, which the head-of-file page would otherwise show
      const path = join(f.home, "blobs", meta.id.slice(0, 2), meta.id);
      const buf = readFileSync(path);
      buf[3] = buf[3]! ^ 0x01;
      writeFileSync(path, buf);
      const req = requestSchemas["blobs.content"].parse({ id: meta.id, start: 0, count: 3 });
      await expect(Promise.resolve().then(() => f.handlers["blobs.content"](req))).rejects.toThrow(
        new RegExp(`^Blob ${meta.id} from t cannot be shown: ${meta.id} is damaged: its content no longer matches its id\\. Re-run t`),
      );
    } finally {
      await f.close();
    }
  });
});

describe("the operator's view in audit mode (the model gets secrets in clear, the inspector does not)", () => {
  let f: Fixture;
  beforeEach(async () => (f = await inspectorFixture({}, { sensitivity: { mode: "audit" } })));
  afterEach(() => f.close());
  const call = <K extends OpName>(op: K, req: unknown) => f.handlers[op](requestSchemas[op].parse(req) as ParsedReq<K>);

  it("masks fetches run by hand, content pages and previews unless revealed", async () => {
    expect(f.engine.fetch({ sessionId: null, id: f.secretId, mode: "grep", args: { pattern: "token" } }).text).toContain("ghp_8fK2");
    const g = await call("fetch.run", { id: f.secretId, mode: "grep", args: { pattern: "token" } });
    expect(g.text).toContain("[masked:github_token]");
    expect(g.text).not.toContain("ghp_8fK2");
    expect((await call("fetch.run", { id: f.secretId, mode: "grep", args: { pattern: "token" }, masked: false })).text).toContain(
      "ghp_8fK2",
    );
    const page = await call("blobs.content", { id: f.secretId, start: 0, count: 10 });
    expect(page.text).not.toContain("ghp_8fK2");
    const timeline = await call("sessions.timeline", { sessionId: "sess-b" });
    expect(JSON.stringify(timeline)).not.toContain("ghp_8fK2");
  });
});
