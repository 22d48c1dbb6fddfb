/**
 * The 256 shard folders of the blobs folder, made ahead. A write into a shard that did not
 * exist yet made it on the call's path: the mkdir, and a file fsync that then also carried the
 * new folder, 0.4 ms more per rescue on average over a new store's first few hundred results
 * (most of them land in a shard of their own). After the first write, the missing ones are made
 * a few per turn of the event loop, off any call's path.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DIR_MODE, inBackground } from "../fs/fsUtil";

/** Shards are the first two hex characters of an id. */
export const SHARD_NAMES: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Folders made per turn of the event loop (about 2 ms on ext4 here). */
const PER_TURN = 32;

/**
 * Makes the shard folders of `root` that are missing, in turns of the event loop; `made` is told
 * of each that exists afterwards. Stops when `closed()` says so, or at the first failure other
 * than a folder another process made meanwhile (the root removed, no space): the write that
 * needs a folder still makes its own.
 */
export function makeShardsLater(root: string, made: (dir: string) => void, closed: () => boolean): void {
  inBackground((done) => {
    // Not unref'd: with only unref'd immediates pending, the event loop sleeps in its poll phase
    // and each turn waited for some other event, seconds in a quiet process (and idle() with it).
    let existing: Set<string> | null = null;
    const turn = (from: number) =>
      setImmediate(() => {
        if (closed()) return done();
        let i = from;
        try {
          existing ??= new Set(readdirSync(root));
          for (; i < SHARD_NAMES.length && i < from + PER_TURN; i++) {
            const name = SHARD_NAMES[i]!;
            const dir = join(root, name);
            if (!existing.has(name)) makeOne(dir);
            made(dir);
          }
        } catch {
          return done();
        }
        if (i < SHARD_NAMES.length) turn(i);
        else done();
      });
    turn(0);
  });
}

/** One folder, never its parents (a root removed meanwhile stays removed); one another process made counts. */
function makeOne(dir: string): void {
  try {
    mkdirSync(dir, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  // As ensurePrivateDir: mkdir's mode is masked by the umask.
  if ((statSync(dir).mode & 0o777) !== DIR_MODE) chmodSync(dir, DIR_MODE);
}
