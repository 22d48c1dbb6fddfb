/**
 * The removal of old ledger detail (store/detailPrune) for the sweeps of a process that answers
 * agents (the timer's, the inspector's), run as background tasks of one batch each: the agents'
 * calls go between the batches, so a first sweep over a year of detail never holds a call for more
 * than one batch.
 */
import type { Logger } from "../runtime";
import type { BlobStore } from "../store/blobStore";
import { detailPrune, type DetailPrune } from "../store/detailPrune";
import type { TaskQueue } from "./taskQueue";

export interface DetailRetention {
  /** Starts a run in the background unless one is under way. */
  start(): void;
  /** Stops the run under way after its current batch (the engine is closing). */
  stop(): void;
}

export function detailRetention(store: BlobStore, queue: TaskQueue, logger: Logger): DetailRetention {
  let running: DetailPrune | null = null;
  const next = (run: DetailPrune): void =>
    queue.push(() => {
      if (running !== run || !store.open) return;
      let more;
      try {
        more = run.step();
      } catch (err) {
        // The run ends here (its retry finds it gone); the next timed sweep starts another.
        running = null;
        throw err;
      }
      if (more) return next(run);
      running = null;
      if (run.counts.calls || run.counts.reads) logger.info("old call detail removed", { ...run.counts });
    });
  return {
    start() {
      if (running || !store.open) return;
      running = detailPrune(store);
      if (running) next(running);
    },
    stop() {
      running = null;
    },
  };
}
