/**
 * Results an earlier process stored but never indexed for search: it was killed, or shut down with
 * indexing still queued. Nothing else indexes them (a search indexes a result only when it asks
 * for that one), so the inspector's search and `rescuer_fetch` search across results would miss
 * them for good. An engine that answers agents (serve, `spillway mcp`, the app) queues them for
 * indexing when it opens the store, a page at a time behind the agents' own work.
 */
import type { Logger } from "../runtime";
import type { BlobStore } from "../store/blobStore";
import type { SearchIndex } from "../search";
import type { TaskQueue } from "./taskQueue";

/** Blobs looked up per page; the next page is looked up once this one's indexing has run. */
const PAGE = 50;

export interface IndexCatchUp {
  /** Starts a run in the background unless one is under way. */
  start(): void;
  /** Stops the run under way after its current page (the engine is closing). */
  stop(): void;
}

export function indexCatchUp(
  store: BlobStore,
  search: SearchIndex,
  queue: TaskQueue,
  scheduleIndex: (id: string) => void,
  maxChars: number,
  logger: Logger,
): IndexCatchUp {
  let running: { after: string; queued: number } | null = null;
  const page = (run: { after: string; queued: number }): void =>
    queue.push(() => {
      if (running !== run || !store.open) return;
      const ids = search.unindexedLiveIds(run.after, PAGE, maxChars);
      if (ids.length === 0) {
        running = null;
        if (run.queued) logger.info("results an earlier process left out of the search index were indexed", { results: run.queued });
        return;
      }
      if (run.queued === 0) logger.info("indexing results an earlier process left out of the search index", { from: ids[0] });
      for (const id of ids) scheduleIndex(id);
      run.queued += ids.length;
      run.after = ids.at(-1)!;
      // Queued behind this page's indexing, so the backlog never holds more than one page.
      page(run);
    });
  return {
    start() {
      if (running || !store.open) return;
      running = { after: "", queued: 0 };
      page(running);
    },
    stop() {
      running = null;
    },
  };
}
