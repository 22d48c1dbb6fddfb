import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../config/config";
import { fileKeyProvider } from "../crypto/keys";
import { ErrorCode, SpillwayError } from "../errors";
import { FakeClock } from "../runtime";
import { tempHome } from "../../tests/helpers/tempHome";
import { BlobStore, type PutInfo } from "./blobStore";
import { CHUNK_BYTES, ContentHasher, parseChunkSums } from "./integrity";

const info: PutInfo = { tool: "read_file", sessionId: "s1", kind: "log", shape: "lines", lines: 1, label: "public" };

function open(home: string) {
  return new BlobStore({ home, clock: new FakeClock(), config: defaultConfig().store, keys: fileKeyProvider(home) });
}

function flipByte(path: string, at: number): void {
  const buf = readFileSync(path);
  buf[at] = buf[at]! ^ 0x20;
  writeFileSync(path, buf);
}

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof SpillwayError ? err.code : String(err);
  }
}

describe("blob integrity", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home.cleanup());

  it("never reads back a plain blob with one flipped byte, and says it is damaged", () => {
    const store = open(home.path);
    const text = "line of a build log\n".repeat(2000);
    const { meta } = store.put(text, info);
    expect(store.read(meta.id)).toBe(text);
    flipByte(store.files.pathOf(meta.id), 20_000);
    expect(() => store.read(meta.id)).toThrow(/damaged: its content no longer matches its id/);
    expect(store.check(meta.id)).toMatchObject({ ok: false, problem: "corrupt" });
    expect(store.intact(meta.id)).toBe(false);
    store.close();
  });

  it("never reads back an encrypted blob whose ciphertext was damaged", () => {
    const store = open(home.path);
    const secret = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n".repeat(40);
    const { meta } = store.put(secret, { ...info, label: "credential" });
    expect(meta.encrypted).toBe(true);
    flipByte(store.files.pathOf(meta.id), 200);
    expect(codeOf(() => store.read(meta.id))).toBe(ErrorCode.Corrupt);
    expect(store.check(meta.id)).toMatchObject({ ok: false, problem: "corrupt" });
    store.close();
  });

  it("tells a lost key apart from a damaged file, and serves nothing either way", () => {
    const first = open(home.path);
    const { meta } = first.put("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789", { ...info, label: "credential" });
    first.close();
    unlinkSync(join(home.path, "key"));
    const store = open(home.path);
    expect(codeOf(() => store.read(meta.id))).toBe(ErrorCode.CannotDecrypt);
    expect(store.check(meta.id)).toMatchObject({ ok: false, problem: "undecryptable" });
    expect(store.keys.status()).toMatchObject({ keyId: null, check: "mismatch" });
    store.close();
  });

  it("stores a repeat afresh when the stored copy is damaged or undecryptable, instead of pointing at it", () => {
    const store = open(home.path);
    const text = "some result\n".repeat(500);
    const { meta } = store.put(text, info);
    flipByte(store.files.pathOf(meta.id), 10);
    const again = store.put(text, { ...info, sessionId: "s2" });
    expect(again).toMatchObject({ created: true, repaired: "corrupt" });
    expect(store.read(meta.id)).toBe(text);
    // and an intact copy is a plain repeat (no rewrite)
    expect(store.put(text, info)).toMatchObject({ created: false });
    store.close();

    const secret = "password: correct-horse-battery-staple";
    const s1 = open(home.path);
    const sealed = s1.put(secret, { ...info, label: "credential" }).meta.id;
    s1.close();
    unlinkSync(join(home.path, "key"));
    const s2 = open(home.path);
    expect(s2.put(secret, { ...info, label: "credential" })).toMatchObject({ created: true, repaired: "undecryptable" });
    expect(s2.read(sealed)).toBe(secret);
    // the new key has its own key check value
    expect(s2.keys.status()).toMatchObject({ check: "ok" });
    s2.close();
  });

  it("verifies a byte range by the chunks it reads only", () => {
    const store = open(home.path);
    // three and a half chunks of ASCII, so bytes and chars line up
    const text = Array.from({ length: Math.ceil((3.5 * CHUNK_BYTES) / 32) }, (_, i) =>
      `row ${String(i).padStart(8, "0")} of the log\n`.padEnd(32, "."),
    ).join("");
    const { meta } = store.put(text, info);
    const sums = parseChunkSums(store.row(meta.id)!.chunk_sums);
    expect(sums).toMatchObject({ chunkBytes: CHUNK_BYTES, count: 4 });
    const r = store.readRange(meta.id, CHUNK_BYTES - 10, 20)!;
    expect(r.bytes.toString("utf8")).toBe(text.slice(CHUNK_BYTES - 10, CHUNK_BYTES + 10));
    expect(r).toMatchObject({ start: CHUNK_BYTES - 10, totalBytes: text.length, encoding: "utf8" });
    // damage in chunk 2: ranges in chunks 0–1 and 3 still verify (they never hash chunk 2), chunk 2 does not
    flipByte(store.files.pathOf(meta.id), 2 * CHUNK_BYTES + 5);
    expect(store.readRange(meta.id, 0, 4000)!.bytes.toString("utf8")).toBe(text.slice(0, 4000));
    expect(store.readRange(meta.id, 3 * CHUNK_BYTES, 100)!.bytes.toString("utf8")).toBe(text.slice(3 * CHUNK_BYTES, 3 * CHUNK_BYTES + 100));
    expect(() => store.readRange(meta.id, 2 * CHUNK_BYTES + 1000, 10)).toThrow(/bytes 2097152–3145728 fail their checksum/);
    expect(() => store.readRange(meta.id, CHUNK_BYTES, CHUNK_BYTES + 10)).toThrow(/fail their checksum/);
    expect(() => store.read(meta.id)).toThrow(/damaged/);
    store.close();
  });

  it("checks encrypted blobs and blobs without chunk sums whole on a range read", () => {
    const store = open(home.path);
    const secret = "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n" + "x".repeat(5000);
    const sealed = store.put(secret, { ...info, label: "credential" }).meta.id;
    expect(store.readRange(sealed, 5, 10)!.bytes.toString("utf8")).toBe(secret.slice(5, 15));
    const plain = store.put("y".repeat(9000), info).meta.id;
    store.db.prepare("UPDATE blobs SET chunk_sums = NULL WHERE id = ?").run(plain);
    expect(store.readRange(plain, 8990, 100)!.bytes.toString("utf8")).toBe("y".repeat(10));
    flipByte(store.files.pathOf(plain), 3);
    expect(() => store.readRange(plain, 8990, 100)).toThrow(/no longer matches its id/);
    store.close();
  });

  it("a truncated file is damaged, whatever range is asked", () => {
    const store = open(home.path);
    const { meta } = store.put("z".repeat(50_000), info);
    const path = store.files.pathOf(meta.id);
    writeFileSync(path, readFileSync(path).subarray(0, 40_000));
    expect(() => store.readRange(meta.id, 0, 10)).toThrow(/holds 40000 bytes where 50000 were stored/);
    expect(() => store.read(meta.id)).toThrow(/holds 40000 bytes/);
    store.close();
  });

  it("chunk sums do not depend on how the bytes were sliced when written", () => {
    const h = new ContentHasher(Buffer.alloc(32, 7));
    const data = Buffer.from("0123456789".repeat(1000));
    const c = h.chunker(4096);
    for (let i = 0; i < data.length; i += 777) c.update(data.subarray(i, i + 777));
    expect(c.digest().equals(h.chunkSums(data, 4096))).toBe(true);
    expect(parseChunkSums(h.chunkSums(data, 4096))!.count).toBe(3);
    expect(parseChunkSums(h.chunkSums(Buffer.alloc(0)))!.count).toBe(1);
  });
});
