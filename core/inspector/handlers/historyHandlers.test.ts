import { cpSync } from "node:fs";
import { join } from "node:path";
import { inspectorFixture, type Fixture } from "../../../tests/helpers/inspectorFixture";
import { FIXTURE_PATHS } from "../../../tests/fixtures/history/fixtures";
import { requestSchemas, type OpName, type ParsedReq } from "../api/contract";
import type { ImportJob } from "../api/dto";

describe("the Import and Replay views' operations over a real engine", () => {
  let f: Fixture;
  beforeEach(async () => (f = await inspectorFixture()));
  afterEach(() => f.close());
  const call = <K extends OpName>(op: K, req: unknown) => f.handlers[op](requestSchemas[op].parse(req) as ParsedReq<K>);

  /** Yields to the event loop until the import job has ended. */
  async function finished(): Promise<ImportJob> {
    for (let i = 0; i < 100_000; i++) {
      const s = (await call("history.status", {}))!;
      if (s.state !== "running") return s;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error("the import did not end");
  }

  it("imports in the background with progress, refuses a second one meanwhile, and lists what came in", async () => {
    expect(await call("history.status", {})).toBeNull();
    const started = await call("history.import", { agent: "codex", path: FIXTURE_PATHS.codex });
    expect(started).toMatchObject({ agent: "codex", state: "running" });
    await expect(async () => call("history.import", { agent: "opencode", path: FIXTURE_PATHS.opencode })).rejects.toThrow(
      /already running/,
    );
    const done = await finished();
    expect(done).toMatchObject({ state: "done", files: 1, filesDone: 1, sessions: 1, callsAdded: 6, issueCount: 0 });
    expect(done.bytesDone).toBe(done.bytes);
    const agents = await call("history.agents", {});
    expect(agents.map((a) => a.agent)).toEqual(["claude-code", "codex", "gemini-cli", "opencode"]);
    expect(agents.find((a) => a.agent === "codex")!.importedSessions).toBe(1);
    const imported = await call("sessions.list", { imported: true });
    expect(imported.rows.map((r) => r.imported?.agent)).toEqual(["codex"]);
    expect((await call("sessions.list", { imported: false })).total).toBe(2);
  });

  it("a cancelled import says so and keeps what it stored", async () => {
    const dir = join(f.home, "claude");
    for (const n of ["a", "b", "c", "d"]) cpSync(FIXTURE_PATHS["claude-code"], join(dir, n), { recursive: true });
    await call("history.import", { agent: "claude-code", path: dir });
    await call("history.cancel", {});
    const done = await finished();
    expect(done.state).toBe("cancelled");
    expect(done.sessions).toBeLessThan(4);
  });

  it("the Overview's would-have-saved is a replay under the current config, recomputed after an import", async () => {
    expect(await call("history.summary", {})).toMatchObject({ sessions: 0, wouldSave: null });
    await call("history.import", { agent: "gemini-cli", path: FIXTURE_PATHS["gemini-cli"] });
    await finished();
    await f.engine.idle();
    const s = await call("history.summary", {});
    const r = await call("replay.run", {});
    expect(s).toMatchObject({ sessions: 1, byAgent: [{ agent: "gemini-cli", sessions: 1 }] });
    expect(s.wouldSave).toMatchObject({ asHappened: r.totals.asHappened, saved: r.totals.policies[0]!.saved });
    expect(s.wouldSave!.saved).toBeGreaterThan(0);
    // The live savings leave the imported calls out.
    expect((await call("overview.get", {})).total.calls).toBe(4);
  });

  it("replays two policies side by side with the texts, exports, and names a bad policy key", async () => {
    await call("history.import", { agent: "opencode", path: FIXTURE_PATHS.opencode });
    await finished();
    await f.engine.idle();
    const r = await call("replay.run", {
      scope: { agent: "opencode" },
      policies: [{ name: "now" }, { name: "tight", rescue: { thresholdChars: 2_000 } }],
      includeText: true,
    });
    expect(r.totals.policies.map((p) => p.name)).toEqual(["now", "tight"]);
    expect(r.sessions[0]!.calls.some((c) => c.policies[0]!.text?.includes("PREVIEW, NOT the full output"))).toBe(true);
    const csv = await call("replay.export", { scope: { agent: "opencode" }, format: "csv" });
    expect(csv).toMatchObject({ filename: "spillway-replay-opencode.csv", mime: "text/csv" });
    expect(csv.text.split("\n")[0]).toContain("tokens_as_happened");
    await expect(async () => call("replay.run", { policies: [{ rescue: { thresholdChars: "x" } }] })).rejects.toThrow(
      /policies\[0\]: "rescue\.thresholdChars"/,
    );
  });
});
