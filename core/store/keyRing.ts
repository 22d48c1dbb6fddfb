/** The store's encryption keys: the provider's current key, plus the previous one while a rotation is in flight. */
import { randomBytes } from "node:crypto";
import { decrypt, encrypt, keyId } from "../crypto/aead";
import type { KeyProvider } from "../crypto/keys";
import { ErrorCode, SpillwayError, describeError } from "../errors";
import type { Db } from "./db";

export class KeyRing {
  private current: Buffer | null = null;

  constructor(
    private readonly db: Db,
    readonly provider: KeyProvider,
  ) {}

  /** The current key, created on first use (the first credential blob). */
  key(): Buffer {
    if (this.current) return this.current;
    const key = this.provider.loadKey() ?? this.provider.createKey();
    this.current = key;
    return key;
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
    const key = candidates.find((k) => keyId(k) === named) ?? candidates[0]!;
    try {
      return decrypt(data, key);
    } catch (err) {
      throw new SpillwayError(ErrorCode.CannotDecrypt, `cannot decrypt ${id}: ${describeError(err)}`);
    }
  }

  private rotatingOldKey(): Buffer | null {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'rotating_old_key'").get() as
      | { value: string }
      | undefined;
    return row ? Buffer.from(row.value, "hex") : null;
  }

  /**
   * Re-encrypts every encrypted file under a new key. All new ciphertexts are written to temp
   * files first; any failure there removes them and leaves store and key as they were. The old
   * key stays readable (in the index) until every file has been switched over.
   */
  rotate(encrypted: { id: string; read: () => Buffer | null; stage: (data: Buffer) => string; commit: (staged: string) => void; discard: (staged: string) => void }[]): number {
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
      throw err instanceof SpillwayError ? err : new SpillwayError(ErrorCode.StoreIo, `key rotation failed, nothing changed: ${describeError(err)}`);
    }
    this.current = next;
    for (const s of staged) s.item.commit(s.path);
    this.db.prepare("DELETE FROM meta WHERE key = 'rotating_old_key'").run();
    return staged.length;
  }
}
