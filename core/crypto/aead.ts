/**
 * AES-256-GCM for blobs at rest. Layout: "SPW1" | keyId (8 bytes) | iv (12) | tag (16) | ciphertext.
 * The key id lets a reader tell "wrong key" from "damaged file" and lets rotation find which
 * blobs still need re-encrypting; the header is bound as additional authenticated data, so
 * editing it fails authentication like any other tampering.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { ErrorCode, SpillwayError } from "../errors";

const MAGIC = Buffer.from("SPW1", "ascii");
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + KEY_ID_BYTES;
const OVERHEAD = HEADER_BYTES + IV_BYTES + TAG_BYTES;
const KEY_BYTES = 32;

function keyIdBytes(key: Buffer): Buffer {
  return createHash("sha256").update(key).digest().subarray(0, KEY_ID_BYTES);
}

function assertKey(key: Buffer, action: "encrypt" | "decrypt"): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    const what = Buffer.isBuffer(key) ? `${key.length} bytes` : typeof key;
    const code = action === "decrypt" ? ErrorCode.CannotDecrypt : ErrorCode.Internal;
    throw new SpillwayError(code, `cannot ${action}: the key must be ${KEY_BYTES} bytes, got ${what}.`);
  }
}

/** Hex id of a key: the first 8 bytes of its SHA-256 (identifies, does not reveal, the key). */
export function keyId(key: Buffer): string {
  return keyIdBytes(key).toString("hex");
}

/** Encrypts `plain` with a fresh random IV. */
export function encrypt(plain: Buffer, key: Buffer): Buffer {
  assertKey(key, "encrypt");
  const header = Buffer.concat([MAGIC, keyIdBytes(key)]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), body]);
}

/** True when `buf` starts with the Spillway encryption header. */
export function isEncrypted(buf: Buffer): boolean {
  return Buffer.isBuffer(buf) && buf.length >= OVERHEAD && buf.subarray(0, MAGIC.length).equals(MAGIC);
}

/** Decrypts and authenticates; any failure is a CannotDecrypt error and no plaintext is returned. */
export function decrypt(blob: Buffer, key: Buffer): Buffer {
  assertKey(key, "decrypt");
  if (!Buffer.isBuffer(blob) || blob.length < MAGIC.length || !blob.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SpillwayError(ErrorCode.CannotDecrypt, "cannot decrypt the blob: it is not in Spillway's encrypted format.");
  }
  if (blob.length < OVERHEAD) {
    throw new SpillwayError(
      ErrorCode.CannotDecrypt,
      `cannot decrypt the blob: it is truncated (${blob.length} bytes, the header alone is ${OVERHEAD}).`,
    );
  }
  const header = blob.subarray(0, HEADER_BYTES);
  const storedId = header.subarray(MAGIC.length).toString("hex");
  if (storedId !== keyId(key)) {
    throw new SpillwayError(
      ErrorCode.CannotDecrypt,
      `cannot decrypt the blob: it was encrypted with key ${storedId}, but the current key is ${keyId(key)}.`,
    );
  }
  const iv = blob.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
  const tag = blob.subarray(HEADER_BYTES + IV_BYTES, OVERHEAD);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(header);
    decipher.setAuthTag(tag);
    // update() output is unauthenticated until final() succeeds; only the joined whole is returned.
    return Buffer.concat([decipher.update(blob.subarray(OVERHEAD)), decipher.final()]);
  } catch (err) {
    throw new SpillwayError(
      ErrorCode.CannotDecrypt,
      "cannot decrypt the blob: authentication failed (the file was modified or truncated).",
      { cause: err },
    );
  }
}
