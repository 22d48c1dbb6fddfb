import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileKeyProvider, type KeyProvider } from "../../core/crypto/keys";
import { SAFE_KEY_FILE, safeStorageKeyProvider, type SafeStorageLike } from "./safeStorageKeys";

/** A fake safeStorage: reversible, but the ciphertext never contains the plain text. */
function fakeSafeStorage(available = true, backend = "gnome_libsecret"): SafeStorageLike & { encrypted: number } {
  const mask = (b: Buffer) => Buffer.from(b.map((x, i) => x ^ ((0x5a + i) % 256)));
  return {
    encrypted: 0,
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(plain: string) {
      this.encrypted++;
      return Buffer.concat([Buffer.from("v10"), mask(Buffer.from(plain, "utf8"))]);
    },
    decryptString(data: Buffer) {
      if (data.subarray(0, 3).toString() !== "v10") throw new Error("Error while decrypting the ciphertext");
      return mask(data.subarray(3)).toString("utf8");
    },
  };
}

/** The file provider's behaviour, in memory. */
function memoryFileProvider(initial: Buffer | null = null): KeyProvider & { key: Buffer | null } {
  return {
    kind: "file",
    key: initial,
    loadKey() {
      return this.key;
    },
    createKey() {
      return (this.key ??= randomBytes(32));
    },
    replaceKey(next) {
      this.key = next;
    },
  };
}

let home: string;
beforeEach(() => (home = mkdtempSync(join(tmpdir(), "spillway-keys-"))));
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("safeStorage key provider", () => {
  it("round-trips a new key through safeStorage into a 0600 file that never holds the key in clear", () => {
    const safe = fakeSafeStorage();
    const fallback = memoryFileProvider();
    const key = Buffer.alloc(32, 7);
    const p = safeStorageKeyProvider(safe, { home, fallback, randomKey: () => key });
    expect(p.kind).toBe("keychain");
    expect(p.loadKey()).toBeNull();
    expect(p.createKey()).toEqual(key);
    const file = join(home, SAFE_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).includes(Buffer.from(key.toString("hex")))).toBe(false);
    // A fresh provider (the next app start) reads the same key back.
    const again = safeStorageKeyProvider(fakeSafeStorage(), { home, fallback, randomKey: () => randomBytes(32) });
    expect(again.loadKey()).toEqual(key);
    expect(fallback.key).toBeNull();
  });

  it("adopts an existing plain key instead of making a new one, so old blobs stay readable", () => {
    const legacy = randomBytes(32);
    const fallback = memoryFileProvider(legacy);
    const p = safeStorageKeyProvider(fakeSafeStorage(), { home, fallback, randomKey: () => randomBytes(32) });
    expect(p.createKey()).toEqual(legacy);
    expect(p.loadKey()).toEqual(legacy);
    const next = randomBytes(32);
    p.replaceKey(next);
    expect(p.loadKey()).toEqual(next);
    expect(fallback.key).toEqual(next);
  });

  it("falls back to the file provider when safeStorage is unavailable or only basic_text", () => {
    for (const safe of [fakeSafeStorage(false), fakeSafeStorage(true, "basic_text")]) {
      const fallback = memoryFileProvider();
      const warnings: string[] = [];
      const p = safeStorageKeyProvider(safe, {
        home,
        fallback,
        randomKey: () => randomBytes(32),
        onWarn: (m) => warnings.push(m),
        platform: "linux",
      });
      expect(p).toBe(fallback);
      expect(warnings[0]).toMatch(/key file/);
      expect(p.createKey()).toEqual(fallback.key);
    }
  });

  it("adopts the real 0600 key file the CLI wrote, and keeps it in step on rotation", () => {
    const file = fileKeyProvider(home);
    const legacy = file.createKey();
    const p = safeStorageKeyProvider(fakeSafeStorage(), { home, fallback: file, randomKey: () => randomBytes(32) });
    expect(p.loadKey()).toEqual(legacy);
    const next = randomBytes(32);
    p.replaceKey(next);
    expect(fileKeyProvider(home).loadKey()).toEqual(next);
    expect(
      safeStorageKeyProvider(fakeSafeStorage(), { home, fallback: fileKeyProvider(home), randomKey: () => randomBytes(32) }).loadKey(),
    ).toEqual(next);
  });

  it("uses the keychain on macOS and Windows whatever the (Linux-only) backend name says", () => {
    for (const platform of ["darwin", "win32"] as const) {
      const p = safeStorageKeyProvider(fakeSafeStorage(true, "unknown"), {
        home,
        fallback: memoryFileProvider(),
        randomKey: () => randomBytes(32),
        platform,
      });
      expect(p.kind).toBe("keychain");
    }
  });

  it("refuses a damaged key file rather than inventing a new key", () => {
    const p = safeStorageKeyProvider(fakeSafeStorage(), { home, fallback: memoryFileProvider(), randomKey: () => randomBytes(32) });
    p.createKey();
    const other = fakeSafeStorage();
    other.decryptString = () => "not a key";
    const broken = safeStorageKeyProvider(other, { home, fallback: memoryFileProvider(), randomKey: () => randomBytes(32) });
    expect(() => broken.loadKey()).toThrow(/does not hold a Spillway key/);
  });
});
