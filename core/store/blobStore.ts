/** The content-addressed blob store: keyed-hash ids, atomic files, the SQLite index, encryption at rest. */
import { createHmac } from "node:crypto";
import { stmt } from "./statements";
import { join } from "node:path";
import type { BlobMeta, Kind, Label } from "../types";
import { BLOB_ID_PATTERN, maxLabel } from "../vocabulary";
import { ErrorCode, SpillwayError } from "../errors";
import type { Clock } from "../runtime";
import type { SpillwayConfig } from "../config/config";
import type { KeyProvider } from "../crypto/keys";
import { KeyRing } from "./keyRing";
import { Ledger } from "./ledger";
import { SessionStore } from "./sessions";
import { BlobFiles, decodeText, encodedLength, encodedSlices, encodeText, encodingFor, type BlobEncoding } from "./blobFiles";
import { openIndex, storeSecret, type Db } from "./db";
import { ensurePrivateDir } from "../fs/fsUtil";
import { toBlobMeta, type BlobRow } from "./rows";

const HOUR = 3_600_000;

export interface PutInfo {
  tool: string;
  server?: string | null;
  sessionId: string;
  kind: Kind;
  shape: string;
  lines: number;
  label: Label;
}

/** A text encoded for storage, with its id. */
export interface PreparedText {
  text: string;
  encoding: BlobEncoding;
  /** Encoded size in bytes. */
  bytes: number;
  id: string;
}

export interface StoreOptions {
  home: string;
  clock: Clock;
  config: SpillwayConfig["store"];
  keys: KeyProvider;
}

export class BlobStore {
  readonly db: Db;
  readonly files: BlobFiles;
  readonly keys: KeyRing;
  private readonly secret: Buffer;
  /** Called after a write grows the store, so the lifecycle can enforce the size cap. */
  onGrow: (() => void) | null = null;

  constructor(readonly opts: StoreOptions) {
    ensurePrivateDir(opts.home);
    this.files = new BlobFiles(join(opts.home, "blobs"));
    this.db = openIndex(join(opts.home, "index.sqlite"));
    this.secret = storeSecret(this.db);
    this.keys = new KeyRing(this.db, opts.keys);
  }

  get now(): number {
    return this.opts.clock.now();
  }

  /** false once closed. */
  get open(): boolean {
    return this.db.open;
  }

  /** Runs `fn` in one transaction; "immediate" takes the write lock first (no upgrade deadlock between processes). */
  transaction<T>(fn: () => T, mode: "deferred" | "immediate" = "deferred"): T {
    const tx = this.db.transaction(fn);
    return mode === "immediate" ? tx.immediate() : tx();
  }

  /** The id `text` has (or would have) in this store. */
  idFor(text: string): string {
    return this.prepareText(text).id;
  }

  /**
   * Encodes and hashes `text` once; `put` takes the result, so the interception path does not
   * encode a multi-MB result twice (about 35 ms per 10 MB).
   */
  prepareText(text: string): PreparedText {
    const encoding = encodingFor(text);
    // Hashed slice by slice: the whole text is never encoded into one buffer just to get its id.
    const h = createHmac("sha256", this.secret).update(encoding).update("\0");
    for (const slice of encodedSlices(text, encoding)) h.update(slice);
    return { text, encoding, bytes: encodedLength(text, encoding), id: h.digest("hex").slice(0, 12) };
  }


  /**
   * Stores `text` unless it is already live (a repeat insert only refreshes its access time and
   * raises its label). The file is written before the row, so a row never points at a missing file.
   */
  put(text: string, info: PutInfo, prepared?: PreparedText): { meta: BlobMeta; created: boolean } {
    const { encoding, id, bytes } = prepared && prepared.text === text ? prepared : this.prepareText(text);
    const now = this.now;
    const existing = this.row(id);
    if (existing && existing.tombstoned_at === null && this.files.exists(id)) {
      const label = maxLabel(existing.label, info.label);
      stmt(this.db, "UPDATE blobs SET last_access_at = ?, expires_at = MAX(expires_at, ?) WHERE id = ?")
        .run(now, now + this.opts.config.ttlHours * HOUR, id);
      if (label !== existing.label) this.raiseLabel(id, label);
      return { meta: this.meta(id)!, created: false };
    }
    const encrypt = info.label === "credential";
    // AES-GCM here takes one buffer; credential results are rarely large, so only they are encoded whole.
    const data = encrypt ? this.keys.encrypt(encodeText(text, encoding)) : null;
    this.files.write(id, data ?? encodedSlices(text, encoding));
    stmt(
        this.db,
        `INSERT INTO blobs (id, chars, bytes, lines, encoding, kind, shape, tool, server, session_id, label, encrypted,
           pinned, created_at, last_access_at, expires_at, fetch_count, sidecar_bytes)
         VALUES (@id, @chars, @bytes, @lines, @encoding, @kind, @shape, @tool, @server, @session_id, @label, @encrypted,
           0, @now, @now, @expires, 0, 0)
         ON CONFLICT (id) DO UPDATE SET bytes = @bytes, encoding = @encoding, label = @label, encrypted = @encrypted,
           tool = @tool, server = @server, session_id = @session_id, created_at = @now, last_access_at = @now,
           expires_at = @expires, fetch_count = 0, sidecar_bytes = 0, tombstoned_at = NULL,
           tombstone_expires_at = NULL, tombstone_reason = NULL`,
      )
      .run({
        id,
        chars: text.length,
        bytes: data ? data.length : bytes,
        lines: info.lines,
        encoding,
        kind: info.kind,
        shape: info.shape,
        tool: info.tool,
        server: info.server ?? null,
        session_id: info.sessionId,
        label: existing ? maxLabel(existing.label, info.label) : info.label,
        encrypted: encrypt ? 1 : 0,
        now,
        expires: now + this.opts.config.ttlHours * HOUR,
      });
    this.onGrow?.();
    return { meta: this.meta(id)!, created: true };
  }

  row(id: string): BlobRow | undefined {
    return stmt(this.db, "SELECT * FROM blobs WHERE id = ?").get(id) as BlobRow | undefined;
  }

  meta(id: string): BlobMeta | null {
    const r = this.row(id);
    return r ? toBlobMeta(r) : null;
  }

  /** The exact text of a live blob; null when it has no file. Throws CannotDecrypt for a bad key. */
  read(id: string): string | null {
    const r = this.row(id);
    if (!r || r.tombstoned_at !== null) return null;
    const buf = this.files.read(id);
    if (!buf) return null;
    return decodeText(r.encrypted ? this.keys.decrypt(buf, id) : buf, r.encoding);
  }

  /** Counts a fetch: refreshes the LRU position and extends the expiry of blobs fetched often. */
  touchFetch(id: string): void {
    const c = this.opts.config;
    stmt(
        this.db,
        `UPDATE blobs SET fetch_count = fetch_count + 1, last_access_at = @now,
           expires_at = CASE WHEN fetch_count + 1 >= @hot THEN MAX(expires_at, created_at + @hotTtl) ELSE expires_at END
         WHERE id = @id`,
      )
      .run({ id, now: this.now, hot: c.hotFetchCount, hotTtl: c.hotTtlHours * HOUR });
  }

  /** Raises a blob's label (never lowers it); a blob that becomes credential is encrypted in place. */
  raiseLabel(id: string, label: Label): boolean {
    const r = this.row(id);
    if (!r) return false;
    const next = maxLabel(r.label, label);
    if (next === r.label) return false;
    if (next === "credential" && !r.encrypted && r.tombstoned_at === null) {
      const plain = this.files.read(id);
      if (plain) {
        const data = this.keys.encrypt(plain);
        this.files.write(id, data);
        stmt(this.db, "UPDATE blobs SET encrypted = 1, bytes = ? WHERE id = ?").run(data.length, id);
      }
    }
    stmt(this.db, "UPDATE blobs SET label = ? WHERE id = ?").run(next, id);
    return true;
  }

  setPinned(id: string, pinned: boolean): boolean {
    return stmt(this.db, "UPDATE blobs SET pinned = ? WHERE id = ? AND tombstoned_at IS NULL").run(pinned ? 1 : 0, id)
      .changes > 0;
  }

  /** Records bytes kept beside a blob (its search index text), so the size cap counts them. */
  setSidecarBytes(id: string, bytes: number): void {
    stmt(this.db, "UPDATE blobs SET sidecar_bytes = ? WHERE id = ? AND tombstoned_at IS NULL").run(bytes, id);
  }

  /**
   * Turns a blob into a tombstone: the row says what it was and why it went, the file is removed.
   * The row changes first, so a crash in between leaves an orphan file (swept later), never a
   * row pointing at a missing file.
   */
  tombstone(id: string, reason: string): boolean {
    const changed = stmt(
        this.db,
        `UPDATE blobs SET tombstoned_at = @now, tombstone_expires_at = @until, tombstone_reason = @reason, pinned = 0,
           sidecar_bytes = 0 WHERE id = @id AND tombstoned_at IS NULL`,
      )
      .run({ id, now: this.now, until: this.now + this.opts.config.tombstoneTtlHours * HOUR, reason }).changes;
    // The answers reads gave from this content go with it (the ledger keeps their size and mode).
    if (changed > 0) stmt(this.db, "DELETE FROM event_texts WHERE blob_id = ?").run(id);
    this.files.remove(id);
    return changed > 0;
  }

  /** Bytes the live store holds: files plus sidecars. */
  usedBytes(): number {
    const r = stmt(this.db, "SELECT COALESCE(SUM(bytes + sidecar_bytes), 0) AS n FROM blobs WHERE tombstoned_at IS NULL")
      .get() as { n: number };
    return r.n;
  }

  capBytes(): number {
    return this.opts.config.maxStoreMb * 1024 * 1024;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** The session table and the ledger, on the store's own connection. */
export function openStoreParts(store: BlobStore): { sessions: SessionStore; ledger: Ledger } {
  return { sessions: new SessionStore(store.db), ledger: new Ledger(store.db) };
}

/** Validates a blob id's shape; a clear sentence otherwise. */
export function checkBlobId(id: unknown): string {
  if (typeof id !== "string" || !BLOB_ID_PATTERN.test(id)) {
    throw new SpillwayError(
      ErrorCode.BadId,
      `"${String(id).slice(0, 40)}" is not a Spillway id: ids are 12 lowercase hex characters, as in the handle's header.`,
    );
  }
  return id;
}
