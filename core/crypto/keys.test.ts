import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync, readFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorCode, SpillwayError } from "../errors";
import { decrypt, encrypt } from "./aead";
import { fileKeyProvider } from "./keys";

const posix = process.platform !== "win32";
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "spillway-keys-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("fileKeyProvider", () => {
  it("has no key until one is created, then loads the same key", () => {
    const p = fileKeyProvider(join(root, "home"));
    expect(p.kind).toBe("file");
    expect(p.loadKey()).toBeNull();
    const key = p.createKey();
    expect(key).toHaveLength(32);
    expect(p.loadKey()!.equals(key)).toBe(true);
    expect(fileKeyProvider(join(root, "home")).loadKey()!.equals(key)).toBe(true);
  });

  it.runIf(posix)("creates the home 0700 and the key 0600, leaving no temp files", () => {
    const home = join(root, "home");
    fileKeyProvider(home).createKey();
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, "key")).mode & 0o777).toBe(0o600);
    expect(readdirSync(home)).toEqual(["key"]);
  });

  it.runIf(posix)("leaves an existing home's mode alone", () => {
    const home = join(root, "existing");
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    fileKeyProvider(home).createKey();
    expect(statSync(home).mode & 0o777).toBe(0o755);
  });

  it("does not overwrite a key another process created first", () => {
    const home = join(root, "home");
    const first = fileKeyProvider(home).createKey();
    const second = fileKeyProvider(home).createKey();
    expect(second.equals(first)).toBe(true);
    expect(fileKeyProvider(home).loadKey()!.equals(first)).toBe(true);
  });

  it("replaces the key atomically (rotation)", () => {
    const home = join(root, "home");
    const p = fileKeyProvider(home);
    const old = p.createKey();
    const blob = encrypt(Buffer.from("payload"), old);
    const next = Buffer.alloc(32, 7);
    p.replaceKey(next);
    expect(p.loadKey()!.equals(next)).toBe(true);
    expect(readdirSync(home)).toEqual(["key"]);
    if (posix) expect(statSync(join(home, "key")).mode & 0o777).toBe(0o600);
    expect(() => decrypt(blob, next)).toThrow(SpillwayError);
    expect(() => p.replaceKey(Buffer.alloc(8))).toThrow(/32 bytes/);
  });

  it.each([
    ["empty", ""],
    ["too short", Buffer.alloc(16).toString("base64")],
    ["raw bytes", "\u0000\u0001binary-garbage\u00ff"],
    ["not base64", "this is not a key at all, just text!!"],
  ])("reports a corrupt key file (%s) with a clear sentence", (_what, content) => {
    const home = join(root, "home");
    mkdirSync(home);
    writeFileSync(join(home, "key"), content);
    try {
      fileKeyProvider(home).loadKey();
      throw new Error("expected loadKey to fail");
    } catch (err) {
      expect(err).toBeInstanceOf(SpillwayError);
      expect((err as SpillwayError).code).toBe(ErrorCode.CannotDecrypt);
      expect((err as SpillwayError).message).toMatch(/key file .*key is corrupt: it should hold 32 bytes in base64/);
    }
  });

  it.runIf(posix)("puts a key file that became world-readable back to 0600", () => {
    const home = join(root, "home");
    const p = fileKeyProvider(home);
    p.createKey();
    chmodSync(join(home, "key"), 0o644);
    p.loadKey();
    expect(statSync(join(home, "key")).mode & 0o777).toBe(0o600);
  });

  it("stores the key as one base64 line", () => {
    const home = join(root, "home");
    const key = fileKeyProvider(home).createKey();
    expect(readFileSync(join(home, "key"), "utf8")).toBe(`${key.toString("base64")}\n`);
  });
});
