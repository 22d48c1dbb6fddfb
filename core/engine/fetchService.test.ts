import { rmSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../config/config";
import { FakeClock, memoryLogger } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { createEngine } from "./engine";

function bigLog(seed: string, lines = 800): string {
  return Array.from({ length: lines }, (_, i) => `[${seed}] step ${i}: compiled module src/mod${i}.ts in ${i % 97} ms`).join("\n") + "\n";
}

describe("fetchService: an id another session holds reads like an id that does not exist", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const e = createEngine({ home: home.path, config: parseConfig({}), clock: new FakeClock(), logger: memoryLogger() });
  afterAll(() => e.close());

  // Same shape as a real id, stored nowhere.
  const unknown = "0123456789ab";
  const theirs = (seed: string) => e.transformToolResult({ sessionId: "owner", tool: "build", text: bigLog(seed) }).blobId!;
  const swap = (s: string, id: string) => s.replaceAll(id, "<id>");

  it("gives the same answer from rescuer_fetch, recall_result, resources/read and spill:", () => {
    const id = theirs("one");
    for (const [foreign, missing] of [
      [e.fetch({ sessionId: "prober", id, mode: "stat" }), e.fetch({ sessionId: "prober", id: unknown, mode: "stat" })],
      [
        e.fetch({ sessionId: "prober", id, mode: "grep", args: { pattern: "one" } }),
        e.fetch({ sessionId: "prober", id: unknown, mode: "grep", args: { pattern: "one" } }),
      ],
      [e.recall("prober", id), e.recall("prober", unknown)],
    ] as const) {
      expect(foreign.isError).toBe(true);
      expect(swap(foreign.text, id)).toBe(swap(missing.text, unknown));
    }
    const r1 = e.readBlob("prober", id);
    const r2 = e.readBlob("prober", unknown);
    expect(r1.ok || r2.ok).toBe(false);
    if (!r1.ok && !r2.ok) expect(swap(r1.message, id)).toBe(swap(r2.message, unknown));
    const x1 = e.expandArguments({ sessionId: "prober", tool: "digest", args: { text: `spill:${id}` } });
    const x2 = e.expandArguments({ sessionId: "prober", tool: "digest", args: { text: `spill:${unknown}` } });
    expect(x1.args).toEqual({ text: `spill:${id}` });
    expect(swap(x1.note ?? "", id)).toBe(swap(x2.note ?? "", unknown));
  });

  it("gives the same answer for a swept blob of another session", () => {
    const id = theirs("two");
    expect(e.purge(id)).toBe(true);
    expect(swap(e.recall("prober", id).text, id)).toBe(swap(e.recall("prober", unknown).text, unknown));
    // the owner is told what happened to it
    expect(e.recall("owner", id).text).toMatch(/purged/);
  });

  it("lets the owner and the operator read the blob", () => {
    const id = theirs("three");
    expect(e.recall("owner", id).isError).toBe(false);
    expect(e.fetch({ sessionId: null, id, mode: "stat" }).isError).toBe(false);
    expect(e.fetch({ sessionId: null, id: unknown, mode: "stat" }).text).toBe(
      `There is no stored result ${unknown}: check the id in the handle or stub.`,
    );
  });

  it("turns away a recall over fetch.fullMaxChars by naming rescuer_fetch, the tool that can read it", () => {
    const id = e.transformToolResult({ sessionId: "owner", tool: "build", text: bigLog("huge", 4_000) }).blobId!;
    const r = e.recall("owner", id);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Result \w+ is [\d,]+ chars, over the 50,000-char limit recall_result returns whole: read it with rescuer_fetch \(mode outline/,
    );
  });
});

describe("fetchService: stat of a blob whose file is gone or cut", () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const e = createEngine({ home: home.path, config: parseConfig({}), clock: new FakeClock(), logger: memoryLogger() });
  afterAll(() => e.close());
  const file = (id: string) => join(home.path, "blobs", id.slice(0, 2), id);

  it("says so under the metadata, and names the tool to re-run", () => {
    const cut = e.transformToolResult({ sessionId: "s", tool: "build", text: bigLog("cut") }).blobId!;
    const gone = e.transformToolResult({ sessionId: "s", tool: "test_run", text: bigLog("gone") }).blobId!;
    const whole = e.transformToolResult({ sessionId: "s", tool: "lint", text: bigLog("whole") }).blobId!;
    truncateSync(file(cut), 1000);
    rmSync(file(gone));
    const stat = (id: string) => e.fetch({ sessionId: "s", id, mode: "stat" }).text;
    expect(stat(cut)).toMatch(
      /\nwarning: its stored copy has 1,000 bytes, not [\d,]+: it is damaged; the other modes cannot serve it; re-run build to get it again\.$/,
    );
    expect(stat(gone)).toMatch(
      /\nwarning: its stored copy is missing; the other modes cannot serve it; re-run test_run to get it again\.$/,
    );
    expect(stat(whole)).not.toContain("warning");
  });
});
