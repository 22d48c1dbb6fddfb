/** `spillway sweep`: expire, evict and repair now; `--deep` also checks every blob against its id. */
import { withEngine, type Command } from "../command";
import { fmtBytes, fmtInt } from "../format";

export const sweepCommand: Command = {
  usage: "[--deep]",
  summary:
    "Expire old blobs, enforce the size cap, remove call detail past store.detailTtlDays, recover files the index lost and clean what interrupted writes left; --deep also reads every blob and quarantines damaged ones.",
  options: { deep: { type: "boolean" } },
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const r = engine.sweep(true, ctx.values.deep === true);
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify(r, null, 2));
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
      return 0;
    }),
};
