/**
 * One empty temp file kept open ahead of the next blob write, so a rescue's write does not wait
 * on creating a file. On ext4, a file created within about half a millisecond of another
 * write's fsync returning waits for the journal: 0.15–0.5 ms on this kind of VM, against 0.04
 * once it has settled, and a busy agent's calls come just that close (the previous result's
 * flushes). Two are kept, so a burst (parallel tool calls, answered in one turn of the event
 * loop) finds one each; they are opened again once the current call is over (setImmediate), off
 * its path.
 *
 * A spare is used only while fresh: the store's repair, in any process, removes temp files older
 * than ten minutes (scan.ts), so one older than five is closed and removed instead. While a
 * process idles between calls (an agent thinking), its spares are touched every four minutes, so
 * they stay fresh. A process killed with a spare open leaves an empty temp file, removed by that
 * same repair.
 */
import { closeSync, fstatSync, futimesSync, openSync } from "node:fs";
import { FILE_MODE, safeUnlink, tempPath, type OpenTemp } from "./fsUtil";

/** A spare older than this is not used (half of repair's grace for temp files). */
export const SPARE_MAX_AGE_MS = 5 * 60_000;
/** Spares kept open. */
const SPARES = 2;
/** How often spares are touched (their mtime is what repair reads), under SPARE_MAX_AGE_MS. */
export const SPARE_TOUCH_MS = 4 * 60_000;

export class SpareTemp {
  private readonly spares: (OpenTemp & { openedAt: number })[] = [];
  private refilling = false;
  private disposed = false;
  private toucher: NodeJS.Timeout | null = null;

  /** `dir`: where spares are made, on the filesystem of the files they become. */
  constructor(
    private readonly dir: string,
    private readonly wallNow: () => number = Date.now,
  ) {}

  /** An open spare when there is a fresh one (the caller owns it from then on); the pool is refilled after this call. */
  take(): OpenTemp | undefined {
    this.refillLater();
    const wall = this.wallNow();
    for (let s = this.spares.pop(); s; s = this.spares.pop()) {
      // Its name must still be there to be renamed: gone when its folder was removed by hand.
      if (wall - s.openedAt < SPARE_MAX_AGE_MS && fstatSync(s.fd).nlink > 0) return { fd: s.fd, path: s.path };
      discard(s);
    }
    return undefined;
  }

  /** Closes and removes the spares; none is made after this. */
  dispose(): void {
    this.disposed = true;
    if (this.toucher) clearInterval(this.toucher);
    for (const s of this.spares.splice(0)) discard(s);
  }

  /** Marks the spares as just made, on disk (mtime) and here; one that cannot be touched is dropped. */
  touch(): void {
    const wall = this.wallNow();
    for (const s of this.spares.splice(0)) {
      try {
        futimesSync(s.fd, wall / 1000, wall / 1000);
        this.spares.push({ ...s, openedAt: wall });
      } catch {
        discard(s);
      }
    }
  }

  private refillLater(): void {
    if (this.refilling || this.disposed) return;
    this.refilling = true;
    setImmediate(() => {
      this.refilling = false;
      while (!this.disposed && this.spares.length < SPARES) {
        const path = tempPath(this.dir);
        try {
          this.spares.push({ fd: openSync(path, "wx", FILE_MODE), path, openedAt: this.wallNow() });
        } catch {
          return; // best effort (the folder removed, no space): the next write opens its own file
        }
      }
      this.toucher ??= setInterval(() => this.touch(), SPARE_TOUCH_MS).unref();
    }).unref();
  }
}

function discard(t: OpenTemp): void {
  try {
    closeSync(t.fd);
  } catch {
    /* already closed */
  }
  safeUnlink(t.path);
}
