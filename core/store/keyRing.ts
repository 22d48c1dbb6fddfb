/** The store's encryption keys: the provider's current key, plus the previous one while a rotation is in flight. */
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
  /** While a rotation is unfinished, the id of the key it moves blobs off (they still decrypt with it). */
  rotatingFrom: string | null;
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
    const old = this.rotatingOldKey();
    let check: KeyStatus["check"] = "absent";
    // Until an interrupted rotation is finished, the check value may still be the old key's.
    if (stored) check = (key && this.checks(key)) || (old && key && this.checks(old)) ? "ok" : "mismatch";
    return {
      provider: this.provider.kind,
      keyId: key ? keyId(key) : null,
      loadError,
      check,
      checkKeyId,
      rotatingFrom: old ? keyId(old) : null,
    };
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

  /** The id of the key an unfinished rotation is moving blobs off (they still decrypt with it); null when none is. */
  pendingRotation(): string | null {
    const old = this.rotatingOldKey();
    return old ? keyId(old) : null;
  }

  /** The provider's key id, without creating a key; null when there is none. */
  currentKeyId(): string | null {
    const key = this.current ?? this.provider.loadKey();
    return key ? keyId(key) : null;
  }

  /**
   * A rotation's first step: the current key is kept in the index so every blob stays readable
   * until all are sealed with the next one. Refused while another rotation is unfinished, as
   * overwriting its old key would orphan the blobs still sealed with it.
   */
  beginRotation(): void {
    const old = this.key();
    const added = this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('rotating_old_key', ?)").run(old.toString("hex"));
    if (added.changes === 0) {
      throw new SpillwayError(ErrorCode.Internal, "an earlier key rotation is unfinished: it must be finished before another starts");
    }
  }

  /**
   * Makes `next` the provider's key: the rotation's point of no return. When the provider fails,
   * says whether the key is still the old one (the rotation can be undone) rather than guessing.
   */
  switchKey(next: Buffer): "switched" | "unchanged" | "unknown" {
    try {
      this.provider.replaceKey(next);
    } catch {
      let now: Buffer | null = null;
      try {
        now = this.provider.loadKey();
      } catch {
        return "unknown";
      }
      const old = this.rotatingOldKey();
      if (now && old && now.equals(old)) return "unchanged";
      if (!now || !now.equals(next)) return "unknown";
    }
    this.current = next;
    this.recordCheck(next, true);
    return "switched";
  }

  /** Ends a rotation once every blob is sealed with the current key (or the key never changed): the old key is forgotten. */
  endRotation(): void {
    const key = this.key();
    if (!this.checks(key)) this.recordCheck(key, true);
    this.db.prepare("DELETE FROM meta WHERE key = 'rotating_old_key'").run();
  }

  /** Whether the stored key check value decrypts with `key`. */
  private checks(key: Buffer): boolean {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'key_check'").get() as { value: string } | undefined;
    if (!row) return false;
    try {
      return decrypt(Buffer.from(row.value, "base64"), key).equals(CHECK_PLAIN);
    } catch {
      return false;
    }
  }
}
