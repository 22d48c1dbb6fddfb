// A damaged or undecryptable blob is never served, never the target of a stub or a handle, and
// the next identical result is delivered and stored afresh; `spillway doctor` (a real CLI
// process) fails on it and checks the key; `spillway sweep --deep` quarantines it.
import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../core/config/config";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { tempHome } from "../helpers/tempHome";
import { runCli } from "./children";

// audit mode: labels and encryption as usual, but answers unmasked, so bytes can be compared exactly
const config = parseConfig({ sensitivity: { mode: "audit" } });
const open = (home: string) => createEngine({ home, config, logger: memoryLogger() });
const fileOf = (home: string, id: string) => join(home, "blobs", id.slice(0, 2), id);

function flipByte(path: string, at: number): void {
  const buf = readFileSync(path);
  buf[at] = buf[at]! ^ 0x01;
  writeFileSync(path, buf);
}

const plainLog = Array.from({ length: 900 }, (_, i) => `[build] step ${i}: compiled src/mod${i}.ts in ${i % 97} ms`).join("\n");
const secretLog = Array.from(
  { length: 400 },
  (_, i) => `deploy ${i}: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLE${String(i).padStart(3, "0")}`,
).join("\n");
// dedup-sized (passed through, stored for dedup), with a credential in it
const secretSmall = `config dump\nDATABASE_PASSWORD=Sup3r-s3cret-passw0rd-value\n${"setting = value\n".repeat(200)}`;

const stored = (engine: ReturnType<typeof open>, id: string) => {
  const r = engine.reader.readRange(id, 0, 1 << 30);
  return r ? r.bytes.toString("utf8") : null;
};

describe("blob integrity across processes", () => {
  it("a flipped byte in a plain and an encrypted blob: not served, doctor fails, a repeat is delivered and stored fresh", async () => {
    const home = tempHome();
    const a = open(home.path);
    const plain = a.transformToolResult({ sessionId: "s1", tool: "build", args: { t: "all" }, text: plainLog });
    const sealed = a.transformToolResult({ sessionId: "s1", tool: "deploy", args: {}, text: secretLog });
    expect([plain.outcome, sealed.outcome]).toEqual(["rescued", "rescued"]);
    expect(a.fetch({ sessionId: null, id: sealed.blobId, mode: "stat" }).text).toMatch(/credential/);
    await a.close();
    flipByte(fileOf(home.path, plain.blobId!), 5_000);
    flipByte(fileOf(home.path, sealed.blobId!), 100); // inside the ciphertext (the header is 40 bytes)

    const doctor = await runCli(home.path, "doctor");
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(new RegExp(`FAIL\\s+blobs\\s+0 live blobs match their ids.*2 damaged.*(${plain.blobId}|${sealed.blobId})`));

    const b = open(home.path);
    for (const id of [plain.blobId!, sealed.blobId!]) {
      for (const answer of [
        b.fetch({ sessionId: "s1", id, mode: "grep", args: { pattern: "step|deploy" } }),
        b.fetch({ sessionId: "s1", id, mode: "range", args: { start: 0, count: 5 } }),
        b.recall("s1", id),
      ]) {
        expect(answer.isError).toBe(true);
        expect(answer.text).toMatch(
          new RegExp(`^The result ${id} from (build|deploy) cannot be served: its stored copy is damaged .* Re-run`),
        );
      }
      const resource = b.readBlob("s1", id);
      expect(resource.ok).toBe(false);
      expect(!resource.ok && resource.message).toMatch(/cannot be served: its stored copy is damaged/);
      expect(() => b.reader.readRange(id, 0, 100)).toThrow(/damaged/);
    }

    // the same session repeats the calls: no stub to the damaged copies, a fresh handle, fresh bytes stored
    const again = b.transformToolResult({ sessionId: "s1", tool: "build", args: { t: "all" }, text: plainLog });
    expect(again).toMatchObject({ outcome: "rescued", blobId: plain.blobId, reason: "stored copy was corrupt" });
    expect(b.recall("s1", plain.blobId).text).toBe(plainLog);
    // a new session repeats the other: a handle to a fresh copy, not to the damaged one
    const other = b.transformToolResult({ sessionId: "s2", tool: "deploy", args: {}, text: secretLog });
    expect(other).toMatchObject({ outcome: "rescued", blobId: sealed.blobId });
    expect(b.recall("s2", sealed.blobId).text).toBe(secretLog);
    expect(stored(b, sealed.blobId!)).toBe(secretLog);
    // and now a repeat is a stub again, to an intact copy
    expect(b.transformToolResult({ sessionId: "s1", tool: "build", args: { t: "all" }, text: plainLog }).outcome).toBe("stubbed");
    await b.close();

    const healthy = await runCli(home.path, "doctor");
    expect(healthy.out).toMatch(/ok\s+blobs\s+2 live blobs match their ids/);
    expect(healthy.code, healthy.out).toBe(0);
    home.cleanup();
  }, 120_000);

  it("sweep --deep quarantines a damaged blob; a fetch then says it was found damaged", async () => {
    const home = tempHome();
    const a = open(home.path);
    const r = a.transformToolResult({ sessionId: "s1", tool: "build", text: plainLog });
    await a.close();
    flipByte(fileOf(home.path, r.blobId!), 1234);
    // a plain sweep does not read blobs whole; --deep does
    expect((await runCli(home.path, "sweep")).out).toMatch(/0 quarantined/);
    const swept = await runCli(home.path, "sweep", "--deep");
    expect(swept.code).toBe(0);
    expect(swept.out).toMatch(/1 quarantined/);
    expect(existsSync(fileOf(home.path, r.blobId!))).toBe(false);
    const q = readdirSync(join(home.path, "quarantine"));
    expect(q).toEqual([expect.stringMatching(new RegExp(`^${r.blobId}\\.\\d+$`))]);

    const b = open(home.path);
    expect(b.fetch({ sessionId: "s1", id: r.blobId, mode: "stat" }).text).toMatch(/found damaged on disk and quarantined .* re-run build/);
    await b.close();
    const doctor = await runCli(home.path, "doctor");
    expect(doctor.out).toMatch(/ok\s+blobs\s+0 live blobs match their ids.*1 files in quarantine/);
    expect(doctor.code, doctor.out).toBe(0);
    home.cleanup();
  }, 120_000);

  it("a deleted key file: doctor reports it, blobs are not served, repeats are delivered raw and stored fresh", async () => {
    const home = tempHome();
    const a = open(home.path);
    const small = a.transformToolResult({ sessionId: "s1", tool: "env", text: secretSmall });
    const big = a.transformToolResult({ sessionId: "s1", tool: "deploy", text: secretLog });
    expect([small.outcome, big.outcome]).toEqual(["passthrough", "rescued"]);
    expect(small.blobId).not.toBeNull();
    expect(a.transformToolResult({ sessionId: "s1", tool: "env", text: secretSmall }).outcome).toBe("stubbed");
    await a.close();
    const keyFile = join(home.path, "key");
    expect(existsSync(keyFile)).toBe(true);
    unlinkSync(keyFile);

    const doctor = await runCli(home.path, "doctor");
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(/FAIL\s+key\s+the key is missing \(.*key\): 2 encrypted blobs cannot be read and are never served/);
    expect(doctor.out).toMatch(/FAIL\s+blobs\s+.*2 cannot be decrypted/);

    const b = open(home.path);
    for (const id of [small.blobId!, big.blobId!]) {
      const answer = b.recall("s1", id);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/cannot be served: its stored copy cannot be decrypted \(the store's key is missing or was replaced\)/);
    }
    // the repeat that was a stub before is delivered in full now, exactly as the tool returned it
    const repeat = b.transformToolResult({ sessionId: "s1", tool: "env", text: secretSmall });
    expect(repeat).toMatchObject({ outcome: "passthrough", text: secretSmall, blobId: small.blobId });
    expect(stored(b, small.blobId!)).toBe(secretSmall);
    await b.close();
    // the repeat made a new key; the other blob is still under the lost one, and doctor says so
    const half = await runCli(home.path, "doctor");
    expect(half.code).toBe(1);
    expect(half.out).toMatch(/FAIL\s+key\s+1 encrypted blob was sealed with key [0-9a-f]{16}, which this store no longer has/);

    const c = open(home.path);
    expect(c.transformToolResult({ sessionId: "s2", tool: "deploy", text: secretLog })).toMatchObject({
      outcome: "rescued",
      blobId: big.blobId,
    });
    expect(stored(c, big.blobId!)).toBe(secretLog);
    await c.close();
    const healthy = await runCli(home.path, "doctor");
    expect(healthy.out).toMatch(
      /ok\s+key\s+key [0-9a-f]{16} \(.*key\), decrypts its key check value and blob [0-9a-f]{12}; 2 encrypted blobs/,
    );
    expect(healthy.code, healthy.out).toBe(0);
    home.cleanup();
  }, 120_000);

  it("a damaged key file: doctor says new credential results go unstored, and moving it aside stores them again", async () => {
    const home = tempHome();
    const a = open(home.path);
    const big = a.transformToolResult({ sessionId: "s1", tool: "deploy", text: secretLog });
    expect(big.outcome).toBe("rescued");
    await a.close();
    const keyFile = join(home.path, "key");
    writeFileSync(keyFile, "not a key\n");

    const doctor = await runCli(home.path, "doctor", "--quick");
    expect(doctor.code).toBe(1);
    expect(doctor.out).toMatch(
      /FAIL\s+key\s+cannot read the key from .*key: .*New credential results are passed on masked but not stored until it can: restore it from a backup; with no backup, move .*key aside: a new key is made with the next credential result, new ones are stored again, and only the 1 result it sealed stay unreadable/,
    );
    // As doctor says: a new credential result is not stored while the key cannot be read…
    const b = open(home.path);
    expect(b.transformToolResult({ sessionId: "s2", tool: "env", text: secretSmall }).blobId).toBeNull();
    await b.close();
    // …and is once the damaged file is moved aside.
    renameSync(keyFile, `${keyFile}.damaged`);
    const c = open(home.path);
    const fresh = c.transformToolResult({ sessionId: "s2", tool: "env", text: secretSmall });
    expect(fresh.blobId).not.toBeNull();
    expect(stored(c, fresh.blobId!)).toBe(secretSmall);
    await c.close();
    home.cleanup();
  }, 120_000);
});
