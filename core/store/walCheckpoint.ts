/**
 * Checkpoints of the index's WAL, off the calls' path. SQLite's automatic checkpoint runs inside
 * the commit that takes the WAL past 1,000 pages, so about one rescue in forty paid for copying
 * them into the database file and for two fsyncs (a 191 k rescue: p99 about 10 ms against 2.4
 * p50). The engine's connection turns it off and checkpoints from a timer instead, whenever the
 * WAL-index header shows that many pages not yet copied. That header is the first bytes of the
 * `-shm` file, in the layout SQLite documents for every process sharing a database
 * (sqlite.org/walformat.html): mxFrame at byte 16 of each of its two copies, nBackfill at 96.
 * Where it cannot be read as documented, the automatic checkpoint is left on.
 *
 * A timer needs turns of the event loop: writes made in one synchronous run (a script driving
 * the engine, a long import step) would grow the WAL without bound. So every commit also checks
 * the header (one 104-byte read) and checkpoints at once past a much higher mark.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { describeError } from "../errors";
import type { Logger } from "../runtime";
import type { Db } from "./db";

/** Pages in the WAL not yet in the database file before a checkpoint runs: SQLite's own default. */
export const CHECKPOINT_PAGES = 1_000;
/** Pages waiting at which a commit checkpoints itself, timer or not: 64 MB of 4 KB pages. */
export const BACKSTOP_PAGES = 16 * CHECKPOINT_PAGES;
const WAL_INDEX_VERSION = 3007000;
const HEADER_BYTES = 104;

export class WalCheckpoints {
  private fd: number | null = null;
  /** The last checkpoint failure logged, until a checkpoint works again; and how many checks failed since. */
  private failing: string | null = null;
  private failedChecks = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private readonly u32 = endianness() === "LE" ? (o: number) => this.header.readUInt32LE(o) : (o: number) => this.header.readUInt32BE(o);

  constructor(
    private readonly db: Db,
    private readonly shmPath: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes over the checkpoints when the header reads as documented (then true), checking every
   * `everyMs` on a timer that never holds the process open; else leaves SQLite's on (false).
   */
  start(everyMs = 500): boolean {
    try {
      this.fd = openSync(this.shmPath, "r");
    } catch {
      return false;
    }
    if (this.pendingPages() === null) {
      this.stop();
      return false;
    }
    this.db.pragma("wal_autocheckpoint = 0");
    this.timer = setInterval(() => this.check(), everyMs);
    this.timer.unref();
    return true;
  }

  /** Pages written to the WAL and not yet copied into the database file; null when the header cannot be read. */
  pendingPages(): number | null {
    if (this.fd === null) return null;
    try {
      if (readSync(this.fd, this.header, 0, HEADER_BYTES, 0) < HEADER_BYTES) return null;
    } catch {
      return null;
    }
    // Two copies, written one after the other: read between the two writes, they differ.
    if (this.u32(0) !== WAL_INDEX_VERSION || this.header[12] !== 1 || !this.header.subarray(0, 48).equals(this.header.subarray(48, 96)))
      return null;
    const mxFrame = this.u32(16);
    const backfilled = this.u32(96);
    return backfilled <= mxFrame ? mxFrame - backfilled : null;
  }

  /** Checkpoints (PASSIVE: never waits for a reader or writer) when enough pages are waiting. */
  check(threshold = CHECKPOINT_PAGES): void {
    if (!this.db.open) return;
    const pending = this.pendingPages();
    if (pending === null || pending < threshold) return;
    try {
      this.db.pragma("wal_checkpoint(PASSIVE)");
      if (this.failing !== null) this.logger.info("WAL checkpoints work again", { failedChecks: this.failedChecks });
      this.failing = null;
      this.failedChecks = 0;
    } catch (err) {
      // Another process checkpointing the same WAL at that moment is no failure: it does the work.
      const code = String((err as { code?: unknown }).code ?? "");
      if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return;
      // A full disk fails every check (twice a second): said once, until it works or fails otherwise.
      const error = describeError(err);
      this.failedChecks++;
      if (error === this.failing) return;
      this.failing = error;
      this.logger.warn("a WAL checkpoint failed; later checks try again (the same failure is not logged again until one works)", {
        error,
      });
    }
  }

  /** After a commit: checkpoints at once when the timer has let the WAL grow past the backstop. */
  afterCommit(): void {
    if (this.timer !== null) this.check(BACKSTOP_PAGES);
  }

  /** Stops the timer; the connection's automatic checkpoint is not restored (it is closing). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
