import { randomBytes } from "node:crypto";
import { ErrorCode, SpillwayError } from "../errors";
import { decrypt, encrypt, isEncrypted, keyId } from "./aead";

const key = randomBytes(32);
const plain = Buffer.from("AWS_SECRET_ACCESS_KEY=not-really-but-long-enough-to-spot\n".repeat(50));

function expectCannotDecrypt(fn: () => unknown, message: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SpillwayError);
    expect((err as SpillwayError).code).toBe(ErrorCode.CannotDecrypt);
    expect((err as SpillwayError).message).toMatch(/^cannot decrypt/);
    expect((err as SpillwayError).message).toMatch(message);
    return;
  }
  throw new Error("expected decrypt to fail");
}

describe("AES-256-GCM blobs", () => {
  it("round-trips, including empty and large content", () => {
    for (const p of [plain, Buffer.alloc(0), randomBytes(3_000_000)]) expect(decrypt(encrypt(p, key), key).equals(p)).toBe(true);
  });

  it("writes the documented layout: SPW1, key id, IV, tag, ciphertext", () => {
    const blob = encrypt(plain, key);
    expect(blob.subarray(0, 4).toString()).toBe("SPW1");
    expect(blob.subarray(4, 12).toString("hex")).toBe(keyId(key));
    expect(blob.length).toBe(4 + 8 + 12 + 16 + plain.length);
    expect(isEncrypted(blob)).toBe(true);
    expect(isEncrypted(plain)).toBe(false);
    expect(isEncrypted(Buffer.from("SPW1"))).toBe(false);
  });

  it("never stores plaintext and never reuses an IV", () => {
    const a = encrypt(plain, key);
    const b = encrypt(plain, key);
    expect(a.includes(Buffer.from("AWS_SECRET_ACCESS_KEY"))).toBe(false);
    expect(a.includes(Buffer.from("not-really"))).toBe(false);
    expect(a.subarray(12, 24).equals(b.subarray(12, 24))).toBe(false);
    expect(a.equals(b)).toBe(false);
  });

  it("keyId is 16 hex chars from the key's SHA-256, stable per key", () => {
    expect(keyId(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyId(key)).toBe(keyId(Buffer.from(key)));
    expect(keyId(randomBytes(32))).not.toBe(keyId(key));
  });

  it("refuses a wrong key, naming both key ids", () => {
    const other = randomBytes(32);
    expectCannotDecrypt(() => decrypt(encrypt(plain, key), other), new RegExp(`${keyId(key)}.*${keyId(other)}`));
  });

  it("refuses any flipped bit: ciphertext, tag, IV or header", () => {
    const blob = encrypt(plain, key);
    for (const at of [blob.length - 1, 30, 13, 40]) {
      const bad = Buffer.from(blob);
      bad[at]! ^= 0x01;
      expectCannotDecrypt(() => decrypt(bad, key), /authentication failed/);
    }
  });

  it("refuses truncated blobs and foreign data", () => {
    const blob = encrypt(plain, key);
    expectCannotDecrypt(() => decrypt(blob.subarray(0, blob.length - 1), key), /authentication failed/);
    expectCannotDecrypt(() => decrypt(blob.subarray(0, 20), key), /truncated/);
    expectCannotDecrypt(() => decrypt(plain, key), /not in Spillway's encrypted format/);
    expectCannotDecrypt(() => decrypt(blob, Buffer.alloc(16)), /32 bytes/);
  });

  it("refuses a key of the wrong size when encrypting", () => {
    expect(() => encrypt(plain, Buffer.alloc(31))).toThrow(/32 bytes/);
  });
});
