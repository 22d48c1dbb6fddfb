/** The store's encryption keys: the provider's current key, plus the previous one while a rotation is in flight. */
import { randomBytes } from "node:crypto";
import { decrypt, encrypt, isEncrypted, keyId } from "../crypto/aead";
import type { KeyProvider } from "../crypto/keys";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import type { Db } from "./db";

/** A known plaintext kept encrypted in the index, so the key can be checked with no blob at hand. */
const CHECK_PLAIN = Buffer.from("spillway key check v1", "utf8");

/** What `doctor` learns about the key without changing anything. */
export interface KeyStatus {
  /** The provider's kind ("file", "keychain"). */
  provider: string;
  /** The key's id, or null when there is none (never created, or lost). */
  keyId: string | null;
  /** Why the key could not be read, when it exists but is unreadable. */
  loadError: string | null;
  /** The stored key check value: absent (no key used yet), decrypted by the key, or not. */
  check: "absent" | "ok" | "mismatch";
  /** The id of the key the check value was made with, when there is one. */
  checkKeyId: string | null;
}

export class KeyRing {
  private current: Buffer | null = null;

  constructor(
    private readonly db: Db,
    readonly provider: KeyProvider,
  ) {}

  /** The current key, created on first use (the first credential blob). */
  key(): Buffer {
    if (this.current) return this.current;
    const loaded = this.provider.loadKey();
    // A missing key is replaced so new credential results can still be stored; blobs under the
    // lost key stay unreadable, and doctor names them.
    const key = loaded ?? this.provider.createKey();
    this.current = key;
    this.recordCheck(key, loaded === null);
    return key;
  }

  /** Keeps the key check value in step with the key in use; never overwrites one another key made, unless that key was lost. */
  private recordCheck(key: Buffer, replaced: boolean): void {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'key_check'").get() as { value: string } | undefined;
    if (row && !replaced) return;
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('key_check', ?)").run(encrypt(CHECK_PLAIN, key).toString("base64"));
  }

  /** The key's state for doctor: read-only (no key is created). */
  status(): KeyStatus {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'key_check'").get() as { value: string } | undefined;
    const stored = row ? Buffer.from(row.value, "base64") : null;
    const checkKeyId = stored && isEncrypted(stored) ? stored.subarray(4, 12).toString("hex") : null;
    let key: Buffer | null = null;
    let loadError: string | null = null;
    try {
      key = this.provider.loadKey();
    } catch (err) {
      loadError = describeError(err);
    }
    let check: KeyStatus["check"] = "absent";
    if (stored) {
      try {
        check = key && decrypt(stored, key).equals(CHECK_PLAIN) ? "ok" : "mismatch";
      } catch {
        check = "mismatch";
      }
    }
    return { provider: this.provider.kind, keyId: key ? keyId(key) : null, loadError, check, checkKeyId };
  }

  encrypt(plain: Buffer): Buffer {
    return encrypt(plain, this.key());
  }

  /** Decrypts with whichever known key the ciphertext names; never returns partial plaintext. */
  decrypt(data: Buffer, id: string): Buffer {
    const candidates: Buffer[] = [];
    try {
      const loaded = this.current ?? this.provider.loadKey();
      if (loaded) {
        this.current = loaded;
        candidates.push(loaded);
      }
    } catch (err) {
      throw new SpillwayError(ErrorCode.CannotDecrypt, `cannot decrypt ${id}: the key cannot be read (${describeError(err)}).`);
    }
    const old = this.rotatingOldKey();
    if (old) candidates.push(old);
    if (candidates.length === 0) {
      throw new SpillwayError(ErrorCode.CannotDecrypt, `cannot decrypt ${id}: the store's key is missing.`);
    }
    const named = data.length >= 12 ? data.subarray(4, 12).toString("hex") : "";
    const key = candidates.find((k) => keyId(k) === named);
    if (!isEncrypted(data)) {
      throw new SpillwayError(ErrorCode.Corrupt, `${id} is damaged: its file is not in Spillway's encrypted format any more.`);
    }
    if (!key) {
      throw new SpillwayError(
        ErrorCode.CannotDecrypt,
        `cannot decrypt ${id}: it was encrypted with key ${named}, which this store no longer has (its key now is ${keyId(candidates[0]!)}).`,
      );
    }
    try {
      return decrypt(data, key);
    } catch {
      // The right key and a failed authentication: the file itself was modified or truncated.
      throw new SpillwayError(ErrorCode.Corrupt, `${id} is damaged: its encrypted file fails authentication (modified or truncated).`);
    }
  }

  private rotatingOldKey(): Buffer | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'rotating_old_key'").get() as { value: string } | undefined;
    return row ? Buffer.from(row.value, "hex") : null;
  }

  /**
   * Re-encrypts every encrypted file under a new key. All new ciphertexts are written to temp
   * files first; any failure there removes them and leaves store and key as they were. The old
   * key stays readable (in the index) until every file has been switched over.
   */
  rotate(
    encrypted: {
      id: string;
      read: () => Buffer | null;
      stage: (data: Buffer) => string;
      commit: (staged: string) => void;
      discard: (staged: string) => void;
    }[],
  ): number {
    const oldKey = this.key();
    const next = randomBytes(32);
    const staged: { item: (typeof encrypted)[number]; path: string }[] = [];
    try {
      for (const item of encrypted) {
        const data = item.read();
        if (!data) continue;
        const plain = this.decrypt(data, item.id);
        staged.push({ item, path: item.stage(encrypt(plain, next)) });
      }
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('rotating_old_key', ?)").run(oldKey.toString("hex"));
      this.provider.replaceKey(next);
    } catch (err) {
      for (const s of staged) s.item.discard(s.path);
      this.db.prepare("DELETE FROM meta WHERE key = 'rotating_old_key'").run();
      throw err instanceof SpillwayError
        ? err
        : new SpillwayError(ErrorCode.StoreIo, `key rotation failed, nothing changed: ${describeError(err)}`);
    }
    this.current = next;
    this.recordCheck(next, true);
    for (const s of staged) s.item.commit(s.path);
    this.db.prepare("DELETE FROM meta WHERE key = 'rotating_old_key'").run();
    return staged.length;
  }
}
