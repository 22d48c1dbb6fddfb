/**
 * `spillway sweep`: expire, evict and repair now; `--deep` also checks every blob against its id;
 * `--compact` then gives the index's free space back to the disk.
 */
import { withEngine, type Command } from "../command";
import { fmtBytes, fmtInt } from "../format";

export const sweepCommand: Command = {
  usage: "[--deep] [--compact]",
  summary:
    "Expire old blobs, enforce the size cap, remove call detail past store.detailTtlDays, recover files the index lost and clean what interrupted writes left; --deep also reads every blob and quarantines damaged ones; --compact then shrinks the index file to what it holds (best with other Spillway processes stopped: they wait while it runs).",
  options: { deep: { type: "boolean" }, compact: { type: "boolean" } },
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const r = engine.sweep(true, ctx.values.deep === true);
      const compacted = ctx.values.compact === true ? engine.compact() : null;
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify(compacted ? { ...r, compact: compacted } : r, null, 2));
        return 0;
      }
      const days = engine.config.store.detailTtlDays;
      const detail =
        days > 0
          ? `detail of ${fmtInt(r.detailPruned.calls)} calls and ${fmtInt(r.detailPruned.reads)} reads older than ${days} days removed`
          : "call detail kept forever (store.detailTtlDays 0)";
      ctx.io.out(
        `swept: ${r.expired} expired, ${r.evicted} evicted, ${r.tombstonesDropped} old tombstones dropped, ` +
          `${r.orphanFiles + r.tempFiles} leftover files removed, ${r.repairedRows} rows repaired, ` +
          `${r.recovered} recovered, ${r.quarantined} quarantined; ${detail}; store ${fmtBytes(r.usedBytes)} of ${fmtBytes(r.capBytes)}; ` +
          `index ${fmtBytes(r.indexBytes)} (${fmtBytes(r.indexFreeBytes)} free, reused before it grows)`,
      );
      if (compacted?.waitingOn) {
        ctx.io.out(
          `compacted, not yet on disk: search index merged and index rebuilt in ${(compacted.ms / 1000).toFixed(1)} s, but ${compacted.waitingOn} ` +
            `is reading the store, so the rebuilt index waits in its write-ahead log (index file and log ${fmtBytes(compacted.beforeBytes)} → ` +
            `${fmtBytes(compacted.afterBytes)}); the file shrinks to about ${fmtBytes(compacted.beforeBytes - compacted.freeBytes)} when that process checkpoints or stops, ` +
            `or run sweep --compact again with it stopped`,
        );
      } else if (compacted) {
        ctx.io.out(
          `compacted: index file ${fmtBytes(compacted.beforeBytes)} → ${fmtBytes(compacted.afterBytes)} ` +
            `(search index merged, free pages returned to the disk) in ${(compacted.ms / 1000).toFixed(1)} s`,
        );
      }
      return 0;
    }),
};
