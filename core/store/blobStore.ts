/** The content-addressed blob store: keyed-hash ids, atomic files, the SQLite index, encryption at rest. */
import { registerStoreProcess } from "./processes";
import { stmt } from "./statements";
import { join } from "node:path";
import type { BlobMeta, Label } from "../types";
import { maxLabel } from "../vocabulary";
import type { StoreOptions } from "./storeOptions";
import { KeyRing } from "./keyRing";
import { finishRotationOnOpen } from "./rotate";
import { Ledger } from "./ledger";
import { SessionStore } from "./sessions";
import { BlobFiles } from "./blobFiles";
import { BlobReader, type BlobRange } from "./blobReader";
import { BlobAux } from "./blobAux";
import { indexPath, openIndex, secretCopyPath, storeSecret, type Db } from "./db";
import { backgroundFlushes, ensurePrivateDir, safeUnlink, type StagedFile } from "../fs/fsUtil";
import { ContentHasher, type BlobProblem, type IntegrityResult } from "./integrity";
import { AheadWrites, insertLiveRow, writeContent } from "./blobContent";
import { toBlobMeta, type BlobRow } from "./rows";
import type { PreparedText, PutInfo, PutResult } from "./putTypes";
import { TextPreparer } from "./textPreparer";

export type { Described, PreparedText, PutInfo, PutResult } from "./putTypes";
export type { StoreHooks, StoreOptions } from "./storeOptions";

const HOUR = 3_600_000;

/** What becomes of a tombstoned blob's file once the tombstone is committed. */
type Removal = "delete" | "quarantine";

export class BlobStore {
  readonly db: Db;
  /** Removes this process's note in the home's processes/ (store/processes.ts). */
  private readonly unregister: () => void;
  readonly files: BlobFiles;
  readonly keys: KeyRing;
  /** Keyed hashing of content: ids and chunk checksums. */
  readonly hasher: ContentHasher;
  private readonly reader: BlobReader;
  /** Files kept beside blobs: line indexes (reads in parts) and kept answers. */
  readonly aux: BlobAux;
  /** Files of blobs tombstoned in the open transaction: removed only once it has committed. */
  private readonly pending = new Map<string, Removal>();
  private grew = false;
  /** Blob files written in the running transact() call, renamed into place just before it commits. */
  private staged: StagedFile[] | null = null;
  /** Files writeAhead() began in the running transact() call, by id, until a put claims them; the rest are removed at its end. */
  private readonly ahead = new AheadWrites();
  private readonly preparer: TextPreparer;
  /** Called after a commit that grew the store, so the lifecycle can enforce the size cap. */
  onGrow: (() => void) | null = null;

  constructor(readonly opts: StoreOptions) {
    ensurePrivateDir(opts.home);
    this.files = new BlobFiles(join(opts.home, "blobs"));
    this.db = openIndex(indexPath(opts.home));
    this.unregister = registerStoreProcess(opts.home);
    this.hasher = new ContentHasher(storeSecret(this.db, secretCopyPath(opts.home)));
    this.preparer = new TextPreparer(this.hasher);
    this.keys = new KeyRing(this.db, opts.keys);
    this.reader = new BlobReader(this.files, this.keys, this.hasher);
    this.aux = new BlobAux(this.db, this.files, this.reader, (id) => this.row(id));
    finishRotationOnOpen(this);
  }

  /** The SQLite index file (its WAL and shared-memory files sit beside it, `-wal` and `-shm`). */
  get indexFile(): string {
    return indexPath(this.opts.home);
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

  /** Resolves once the disk flushes this process left to the background (see stageFileAtomic) are done. */
  flushed(): Promise<void> {
    return backgroundFlushes();
  }

  /** The id `text` has (or would have) in this store. */
  idFor(text: string): string {
    return this.prepareText(text).id;
  }

  /**
   * Encodes and hashes `text` once; `put` takes the result. With `keep`, its encoded bytes too,
   * lent until the next `prepareText(…, true)` (one call at a time; see textPreparer.ts).
   */
  prepareText(text: string, keep = false): PreparedText {
    return this.preparer.prepare(text, keep);
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction (a second process waits for the lock rather than
   * failing). Blob files it wrote are flushed while `fn` goes on and renamed into place just
   * before the commit. Files of blobs it tombstoned are removed after the commit, so a kill at any point
   * leaves no live row without its file; then the size cap is enforced if the store grew.
   * Nested calls join the outer transaction.
   */
  transact<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    let result: T;
    const staged: StagedFile[] = (this.staged = []);
    try {
      result = this.db
        .transaction(() => {
          const r = fn();
          // In place before the rows naming them commit: a kill never leaves a row without its file.
          while (staged.length > 0) staged.shift()!.commit();
          return r;
        })
        .immediate();
    } catch (err) {
      for (const s of staged) s.abort();
      this.pending.clear();
      this.grew = false;
      throw err;
    } finally {
      this.staged = null;
      this.ahead.abortAll();
    }
    this.flushRemovals();
    this.opts.hooks?.afterCommit?.();
    if (this.grew) {
      this.grew = false;
      this.onGrow?.();
    }
    return result;
  }

  /**
   * Begins writing the file of a text this store holds no live copy of, so the disk flushes it
   * while the caller works out the rest of the call; the put of the same text later in this
   * transact() call takes the file instead of writing its own. `label` (the text's, computed
   * only when a write is due) decides whether the file is sealed, as in put. Outside transact(),
   * or when a live row exists (a repeat, or a damaged copy put will repair), it does nothing.
   */
  writeAhead(prepared: PreparedText, label: () => Label): void {
    if (this.staged === null || this.ahead.has(prepared.id)) return;
    const existing = this.row(prepared.id);
    if (existing && existing.tombstoned_at === null) return;
    const encrypt = (existing ? maxLabel(existing.label, label()) : label()) === "credential";
    this.preparer.checkLease(prepared);
    this.ahead.begin({ keys: this.keys, hasher: this.hasher, stage: (data) => this.files.stage(prepared.id, data) }, prepared, encrypt);
  }

  /**
   * Stores `text` unless it is already live and intact (a repeat insert only refreshes its access
   * time and raises its label). A live blob whose file is damaged or cannot be decrypted is
   * written afresh from `text`: `repaired` says what was wrong. The file is written before the
   * row, so a row never points at a missing file.
   */
  put(text: string, info: PutInfo, prepared?: PreparedText): PutResult {
    return this.transact(() => this.putNow(text, info, prepared && prepared.text === text ? prepared : this.prepareText(text)));
  }

  private putNow(text: string, info: PutInfo, prepared: PreparedText): PutResult {
    const { encoding, id } = prepared;
    const now = this.now;
    const existing = this.row(id);
    const previousLabel = existing ? existing.label : null;
    let repaired: BlobProblem | undefined;
    if (existing && existing.tombstoned_at === null) {
      const state = this.reader.intact(existing) ? null : this.reader.check(existing);
      if (state === null || state.ok) {
        const label = maxLabel(existing.label, info.label);
        stmt(this.db, "UPDATE blobs SET last_access_at = ?, expires_at = MAX(expires_at, ?) WHERE id = ?").run(
          now,
          now + this.opts.config.ttlHours * HOUR,
          id,
        );
        if (label !== existing.label) this.raiseLabel(id, label);
        return { meta: this.meta(id)!, created: false, previousLabel };
      }
      repaired = state.problem;
    }
    const label = existing ? maxLabel(existing.label, info.label) : info.label;
    const encrypt = label === "credential";
    const early = this.ahead.claim(id, encrypt);
    if (early) this.staged?.push(early.file);
    else this.preparer.checkLease(prepared);
    const { bytes: stored, chunkSums } =
      early ?? writeContent({ keys: this.keys, hasher: this.hasher, write: (data) => this.writeFile(id, data) }, prepared, encrypt);
    const d = "describe" in info ? info.describe() : info;
    insertLiveRow(this.db, {
      id,
      chars: text.length,
      bytes: stored,
      lines: d.lines,
      encoding,
      kind: d.kind,
      shape: d.shape,
      tool: info.tool,
      server: info.server ?? null,
      session_id: info.sessionId,
      label,
      encrypted: encrypt ? 1 : 0,
      now,
      expires: now + this.opts.config.ttlHours * HOUR,
      sums: chunkSums,
    });
    if (encrypt) this.aux.remove(id); // nothing in clear beside a credential blob
    this.pending.delete(id);
    this.grew = true;
    return { meta: this.meta(id)!, created: true, previousLabel, ...(repaired ? { repaired } : {}) };
  }

  /** Writes a blob's file: staged for the running transact() call to put in place before it commits, else at once. */
  private writeFile(id: string, data: Buffer | Iterable<Buffer>): void {
    if (this.staged) this.staged.push(this.files.stage(id, data));
    else this.files.write(id, data);
  }

  row(id: string): BlobRow | undefined {
    return stmt(this.db, "SELECT * FROM blobs WHERE id = ?").get(id) as BlobRow | undefined;
  }

  meta(id: string): BlobMeta | null {
    const r = this.row(id);
    return r ? toBlobMeta(r) : null;
  }

  /**
   * The exact text of a live blob, checked against its id; null when it has no file. Throws
   * SpillwayError Corrupt (damaged file) or CannotDecrypt (key missing or wrong): never bad bytes.
   */
  read(id: string): string | null {
    const r = this.row(id);
    if (!r || r.tombstoned_at !== null) return null;
    return this.reader.text(r);
  }

  /**
   * Bytes `start` to `start + length` of a live blob's stored bytes (UTF-8 or UTF-16LE, see the
   * encoding), verified by the chunk checksums of the chunks read only. Null when there is no
   * live blob or file. Throws as `read` does. A slice may cut a character: decode with care.
   */
  readRange(id: string, start: number, length: number): BlobRange | null {
    const r = this.row(id);
    if (!r || r.tombstoned_at !== null) return null;
    return this.reader.range(r, start, length);
  }

  /** Whether a live blob's file is there and matches its id (a stat when already verified in this process). */
  intact(id: string): boolean {
    const r = this.row(id);
    return !!r && r.tombstoned_at === null && this.reader.intact(r);
  }

  /** A full check of a live blob's file against its id (doctor, deep sweeps); null for no live blob. */
  check(id: string): IntegrityResult | null {
    const r = this.row(id);
    return r && r.tombstoned_at === null ? this.reader.check(r) : null;
  }

  /** Counts a fetch: refreshes the LRU position and extends the expiry of blobs fetched often. */
  touchFetch(id: string): void {
    const c = this.opts.config;
    stmt(
      this.db,
      `UPDATE blobs SET fetch_count = fetch_count + 1, last_access_at = @now,
           expires_at = CASE WHEN fetch_count + 1 >= @hot THEN MAX(expires_at, created_at + @hotTtl) ELSE expires_at END
         WHERE id = @id`,
    ).run({ id, now: this.now, hot: c.hotFetchCount, hotTtl: c.hotTtlHours * HOUR });
  }

  /** Raises a blob's label (never lowers it); a blob that becomes credential is encrypted in place. */
  raiseLabel(id: string, label: Label): boolean {
    const r = this.row(id);
    if (!r) return false;
    const next = maxLabel(r.label, label);
    if (next === r.label) return false;
    // What is kept beside a blob is for plaintext blobs only.
    if (next === "credential") this.aux.remove(id);
    if (next === "credential" && !r.encrypted && r.tombstoned_at === null) {
      // Only verified bytes are encrypted: sealing a damaged file would make it look authentic.
      const plain = this.reader.check(r).ok ? this.files.read(id) : null;
      if (plain) {
        const data = this.keys.encrypt(plain);
        this.files.write(id, data);
        stmt(this.db, "UPDATE blobs SET encrypted = 1, bytes = ?, chunk_sums = NULL WHERE id = ?").run(data.length, id);
      }
    }
    stmt(this.db, "UPDATE blobs SET label = ? WHERE id = ?").run(next, id);
    return true;
  }

  setPinned(id: string, pinned: boolean): boolean {
    return stmt(this.db, "UPDATE blobs SET pinned = ? WHERE id = ? AND tombstoned_at IS NULL").run(pinned ? 1 : 0, id).changes > 0;
  }

  /** Records bytes kept beside a blob (its search index text), so the size cap counts them. */
  setSidecarBytes(id: string, bytes: number): void {
    stmt(this.db, "UPDATE blobs SET sidecar_bytes = ? WHERE id = ? AND tombstoned_at IS NULL").run(bytes, id);
  }

  /**
   * Turns a blob into a tombstone: the row says what it was and why it went. Its file is removed
   * (reason "corrupt": moved to the quarantine folder) only after the transaction commits, so a
   * kill before the commit leaves the live row with its file, and one after leaves an orphan file
   * of a tombstone, which a deep sweep removes.
   */
  tombstone(id: string, reason: string): boolean {
    const changed = stmt(
      this.db,
      `UPDATE blobs SET tombstoned_at = @now, tombstone_expires_at = @until, tombstone_reason = @reason, pinned = 0,
           sidecar_bytes = 0, aux_bytes = 0 WHERE id = @id AND tombstoned_at IS NULL`,
    ).run({ id, now: this.now, until: this.now + this.opts.config.tombstoneTtlHours * HOUR, reason }).changes;
    // The answers reads gave from this content go with it (the ledger keeps their size and mode).
    if (changed > 0) stmt(this.db, "DELETE FROM event_texts WHERE blob_id = ?").run(id);
    this.opts.hooks?.afterTombstone?.(id);
    this.pending.set(id, reason === "corrupt" ? "quarantine" : "delete");
    if (!this.db.inTransaction) this.flushRemovals();
    return changed > 0;
  }

  /** The folder damaged and unverifiable files are moved to, kept there until the tombstone TTL. */
  get quarantineDir(): string {
    return join(this.opts.home, "quarantine");
  }

  /** Moves a blob's file into quarantine, named `<id>.<time>`; false when there was none. */
  moveToQuarantine(id: string): boolean {
    ensurePrivateDir(this.quarantineDir);
    return this.files.moveOut(id, join(this.quarantineDir, `${id}.${this.now}`));
  }

  /**
   * Removes the files of committed tombstones. Under the write lock, and only while the row is
   * still a tombstone: another process cannot be half way through storing the same content
   * again (its file write and row update happen under that lock too).
   */
  private flushRemovals(): void {
    if (this.pending.size === 0) return;
    const work = [...this.pending];
    this.pending.clear();
    try {
      this.db
        .transaction(() => {
          const state = stmt(this.db, "SELECT tombstoned_at FROM blobs WHERE id = ?");
          for (const [id, how] of work) {
            const r = state.get(id) as { tombstoned_at: number | null } | undefined;
            if (r && r.tombstoned_at === null) continue;
            if (how === "quarantine") this.moveToQuarantine(id);
            else safeUnlink(this.files.pathOf(id));
            this.files.removeAux(id);
          }
        })
        .immediate();
    } catch {
      // The tombstones are committed; files left behind are orphans of tombstones, which a deep sweep removes.
    }
  }

  /** Every live blob's id. */
  liveIds(): string[] {
    return this.db.prepare("SELECT id FROM blobs WHERE tombstoned_at IS NULL").pluck().all() as string[];
  }

  /** Bytes the size cap counts: live blobs' files, sidecars and aux files (kept by triggers, see STORE_USAGE). */
  usedBytes(): number {
    return (stmt(this.db, "SELECT bytes FROM store_usage WHERE id = 0").get() as { bytes: number }).bytes;
  }

  capBytes(): number {
    return this.opts.config.maxStoreMb * 1024 * 1024;
  }

  close(): void {
    this.files.close();
    if (this.db.open) this.db.close();
    this.unregister();
  }
}

/** The session table and the ledger, on the store's own connection. */
export function openStoreParts(store: BlobStore): { sessions: SessionStore; ledger: Ledger } {
  return { sessions: new SessionStore(store.db), ledger: new Ledger(store.db) };
}
