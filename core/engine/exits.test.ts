// Every outcome leaves through the model's exit: small pass-through results, stubs, handles,
// fetch and recall answers, per sensitivity.mode and the per-tool opt-out. And what the engine
// writes (call rows, event data, the search index, the streak table) holds no secret in clear.
import { parseConfig, type ConfigInput } from "../config/config";
import { createEngine, engineInternals } from "./engine";
import { FakeClock, memoryLogger } from "../runtime";
import { smallSecrets } from "../../tests/fixtures/secrets/smallSecrets";
import { tempHome } from "../../tests/helpers/tempHome";

const { lines, values } = smallSecrets();
const SMALL = ["$ ./deploy.sh --env prod", ...lines, "deploy finished in 12 s"].join("\n") + "\n";
const leaks = (text: string) => values.filter((v) => text.includes(v));

describe("the model's exit in the engine", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());
  const make = (cfg: ConfigInput = {}) =>
    createEngine({ home: home.path, config: parseConfig(cfg), clock: new FakeClock(), logger: memoryLogger() });

  it("masks a small pass-through result in mask mode and keeps the rest of it", async () => {
    const e = make();
    expect(SMALL.length).toBeLessThan(2_000); // under dedup and rescue: nothing is stored
    const r = e.transformToolResult({ sessionId: "s", tool: "shell", text: SMALL });
    expect(r).toMatchObject({ outcome: "passthrough", blobId: null, masked: true });
    expect(leaks(r.text)).toEqual([]);
    expect(r.text.split("\n")).toHaveLength(SMALL.split("\n").length);
    expect(r.text).toContain("SESSION_SECRET=[masked:secret]");
    expect(r.text).toContain("-p[masked:password] -h db.internal shop");
    expect(r.text).toContain("deploy finished in 12 s");
    await e.close();
  });

  it("gives the result as it is in audit and off modes, and to an opted-out tool", async () => {
    for (const cfg of [
      { sensitivity: { mode: "audit" } },
      { sensitivity: { mode: "off" } },
      { sensitivity: { unmaskedTools: ["vault__*"] } },
    ] as ConfigInput[]) {
      const e = make(cfg);
      const tool = cfg.sensitivity?.unmaskedTools ? "vault__read_secret" : "shell";
      const r = e.transformToolResult({ sessionId: "s", tool, text: SMALL });
      expect(r.text).toBe(SMALL);
      expect(r.masked).toBeUndefined();
      // what is written under the home stays masked all the same
      const row = engineInternals(e).ledger.call(r.callId!)!;
      expect(leaks(row.raw_text!)).toEqual([]);
      await e.close();
      home.cleanup();
      home = tempHome();
    }
  });

  it("masks a stored pass-through, its stub and its recall", async () => {
    const e = make();
    const text = SMALL + "ordinary output line\n".repeat(150); // over dedup.minChars, under the rescue threshold
    const first = e.transformToolResult({ sessionId: "s", tool: "shell", args: { cmd: "env" }, text });
    expect(first).toMatchObject({ outcome: "passthrough", masked: true });
    expect(leaks(first.text)).toEqual([]);
    expect(e.reader.meta(first.blobId!)).toMatchObject({ label: "credential", encrypted: true });
    const stub = e.transformToolResult({ sessionId: "s", tool: "shell", args: { cmd: "env" }, text });
    expect(stub.outcome).toBe("stubbed");
    const recalled = e.recall("s", first.blobId);
    expect(recalled.isError).toBe(false);
    expect(leaks(recalled.text)).toEqual([]);
    expect(recalled.text).toBe(first.text);
    await e.close();
  });

  it("masks handles and every fetch answer; an opted-out tool's blob is read in clear", async () => {
    const e = make({ sensitivity: { unmaskedTools: ["vault__*"] } });
    const text = SMALL + "filler line of a long listing\n".repeat(600);
    const r = e.transformToolResult({ sessionId: "s", tool: "shell", text });
    expect(r.outcome).toBe("rescued");
    expect(leaks(r.text)).toEqual([]);
    for (const [mode, args] of [
      ["range", { start: 0, count: 20 }],
      ["grep", { pattern: "KEY|TOKEN|Cookie|mysql" }],
      ["search", { query: "cookie session token" }],
      ["outline", {}],
    ] as const) {
      const a = e.fetch({ sessionId: "s", id: r.blobId, mode, args });
      expect(a.isError, a.text).toBe(false);
      expect(leaks(a.text), `${mode}: ${a.text}`).toEqual([]);
    }
    expect(leaks(JSON.stringify(e.readBlob("s", r.blobId)))).toEqual([]);
    const vault = e.transformToolResult({ sessionId: "s", tool: "vault__read_secret", text: text + "vault\n" });
    expect(leaks(e.fetch({ sessionId: "s", id: vault.blobId, mode: "range", args: { start: 0, count: 20 } }).text).length).toBe(
      values.length,
    );
    expect(e.fetch({ sessionId: "s", id: vault.blobId, mode: "full" }).isError).toBe(false);
    await e.close();
  });

  it("writes no secret in clear: call rows, arguments, event data, the search index, the streak table", async () => {
    const e = make();
    const big = SMALL + "filler line of a long listing\n".repeat(600);
    const r = e.transformToolResult({
      sessionId: "s",
      tool: "shell",
      args: { cmd: `curl -u admin:${values[5]} x`, env: { DB_PASSWORD: values[6] } },
      text: big,
    });
    e.transformToolResult({ sessionId: "s", tool: "shell", args: { password: values[1] }, text: SMALL });
    e.transformToolResult({ sessionId: "s", tool: "dup", args: { token: values[0] }, text: SMALL + "x".repeat(2_000) });
    e.transformToolResult({ sessionId: "s", tool: "dup", args: { token: values[0] }, text: SMALL + "x".repeat(2_000) });
    e.fetch({ sessionId: "s", id: r.blobId, mode: "grep", args: { pattern: values[2] } });
    e.fetch({ sessionId: "s", id: r.blobId, mode: "search", args: { query: `where is ${values[3]}` } });
    await e.idle();
    const db = engineInternals(e).store.db;
    const dump = [
      ...db.prepare("SELECT args_json, raw_text, given_text FROM calls").all(),
      ...db.prepare("SELECT data_json FROM events").all(),
      ...db.prepare("SELECT body, extra FROM search_chunks").all(),
      ...db.prepare("SELECT key FROM streaks").all(),
    ]
      .map((row) => JSON.stringify(row))
      .join("\n");
    expect(dump).toContain("filler line"); // the index did run
    expect(leaks(dump)).toEqual([]);
    for (const row of db.prepare("SELECT args_json FROM calls WHERE args_json IS NOT NULL").all() as { args_json: string }[]) {
      expect(() => JSON.parse(row.args_json)).not.toThrow();
    }
    await e.close();
  });

  it("still masks when it fails open", async () => {
    const logger = memoryLogger();
    const e = createEngine({ home: home.path, clock: new FakeClock(), logger });
    engineInternals(e).store.db.close(); // every write now throws: the transform fails open
    const r = e.transformToolResult({ sessionId: "s", tool: "shell", text: SMALL });
    expect(r.outcome).toBe("failed_open");
    expect(leaks(r.text)).toEqual([]);
    expect(logger.entries.some((l) => l.msg.includes("transform failed"))).toBe(true);
  });
});
