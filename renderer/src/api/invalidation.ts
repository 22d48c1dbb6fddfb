/** Which cached operations a pushed event makes stale. Pure, so the mapping is tested directly. */
import type { OpName, Pushed } from "../../../core/inspector/api/contract";

const BLOB_READS: OpName[] = ["blobs.list", "blobs.facets", "blobs.get", "blobs.content", "search.all"];
const LEDGER_READS: OpName[] = [
  "overview.get",
  "savings.get",
  "sessions.list",
  "sessions.timeline",
  "calls.find",
  "calls.get",
  "events.get",
];
/** Imported history and its replays (the would-have-saved figure is recomputed only after an import). */
const HISTORY_READS: OpName[] = ["history.agents", "history.summary", "history.status"];

export function staleOps(e: Pushed): OpName[] {
  switch (e.event) {
    case "engine": {
      const ev = e.data;
      switch (ev.type) {
        case "call":
          return [...LEDGER_READS, "blobs.list", "blobs.facets", "blobs.get"];
        case "fetch":
        case "expansion":
          return [...LEDGER_READS, "blobs.get", "blobs.list"];
        case "blob":
        case "sweep":
          return [...BLOB_READS, ...LEDGER_READS];
        case "session":
          return ev.change === "import"
            ? [...LEDGER_READS, ...HISTORY_READS, "blobs.list", "blobs.facets"]
            : ["sessions.list", "sessions.timeline", "calls.find", "overview.get"];
      }
      return [];
    }
    case "ledger":
      // Another process wrote to the store (an agent's call, a CLI import): anything read from it may have changed.
      return [...BLOB_READS, ...LEDGER_READS, ...HISTORY_READS];
    case "endpoint":
      return ["endpoint.status"];
    case "config":
      return ["config.get"];
  }
}

/**
 * Coalesces invalidations: a burst of events (an agent making 50 calls a second) refreshes
 * each view once per `delayMs`, not once per event.
 */
export function batchInvalidation(apply: (ops: OpName[]) => void, delayMs = 250): (ops: OpName[]) => void {
  let pending = new Set<OpName>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (ops) => {
    for (const op of ops) pending.add(op);
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      const batch = [...pending];
      pending = new Set();
      apply(batch);
    }, delayMs);
  };
}
