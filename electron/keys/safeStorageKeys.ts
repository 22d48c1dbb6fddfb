/**
 * The store's encryption key held through Electron's safeStorage (macOS Keychain, Windows DPAPI,
 * Linux Secret Service / KWallet): the key's ciphertext lives in a 0600 file in the home, and only
 * this user's OS session can unwrap it. Where safeStorage offers no real protection (unavailable,
 * or Linux's "basic_text" fallback with a hard-coded password) the file key provider is used
 * instead, since a 0600 plain key is then no weaker and stays readable by the CLI.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { KeyProvider } from "../../core/crypto/keys";
import { writeFileAtomic } from "../../core/fs/fsUtil";
import type { SafeStoragePort } from "../ports";

export const SAFE_KEY_FILE = "key.safestorage";
const KEY_BYTES = 32;

export interface SafeStorageKeyOptions {
  home: string;
  /** The file key provider for this home: the fallback, and the key adopted on first run. */
  fallback: KeyProvider;
  /** Makes a new key; injectable so tests are deterministic. */
  randomKey(): Buffer;
  onWarn?(message: string): void;
  platform?: NodeJS.Platform;
}

export type SafeStorageLike = SafeStoragePort & { getSelectedStorageBackend?(): string };

/** Why safeStorage cannot hold the key here, or null when it can. */
export function safeStorageUnusable(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): string | null {
  if (!safeStorage.isEncryptionAvailable()) return "OS encryption (safeStorage) is not available";
  // The backend is a Linux notion (Keychain and DPAPI are the only choice elsewhere).
  if (platform !== "linux") return null;
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (backend === "basic_text" || backend === "unknown") return `safeStorage would use the "${backend}" backend, which is not a keychain`;
  return null;
}

/**
 * The app's key provider. When a plain key file already exists (the CLI or an earlier version
 * made it), its key is adopted rather than replaced, so blobs already encrypted stay readable;
 * the plain file is kept because agent-spawned `spillway mcp` processes read the same store.
 */
export function safeStorageKeyProvider(safeStorage: SafeStorageLike, opts: SafeStorageKeyOptions): KeyProvider {
  const unusable = safeStorageUnusable(safeStorage, opts.platform);
  if (unusable) {
    opts.onWarn?.(`${unusable}: the store key stays in the 0600 key file.`);
    return opts.fallback;
  }
  const path = join(opts.home, SAFE_KEY_FILE);

  const save = (key: Buffer) => {
    mkdirSync(opts.home, { recursive: true, mode: 0o700 });
    writeFileAtomic(path, safeStorage.encryptString(key.toString("hex")));
  };

  const read = (): Buffer | null => {
    if (!existsSync(path)) return null;
    const hex = safeStorage.decryptString(readFileSync(path));
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path} does not hold a Spillway key`);
    return Buffer.from(hex, "hex");
  };

  return {
    kind: "keychain",
    loadKey() {
      const held = read();
      if (held) return held;
      const legacy = opts.fallback.loadKey();
      if (legacy) save(legacy);
      return legacy;
    },
    createKey() {
      const existing = this.loadKey();
      if (existing) return existing;
      const key = opts.randomKey();
      if (key.length !== KEY_BYTES) throw new Error(`a store key is ${KEY_BYTES} bytes`);
      save(key);
      return key;
    },
    replaceKey(next) {
      save(next);
      // Other processes on this store read the plain file: keep it in step with the rotation.
      if (opts.fallback.loadKey()) opts.fallback.replaceKey(next);
    },
  };
}
