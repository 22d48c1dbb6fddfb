/** `spillway sweep`: expire, evict and repair now; `--deep` also checks every blob against its id. */
import { withEngine, type Command } from "../command";
import { fmtBytes } from "../format";

export const sweepCommand: Command = {
  usage: "[--deep]",
  summary:
    "Expire old blobs, enforce the size cap, recover files the index lost and clean what interrupted writes left; --deep also reads every blob and quarantines damaged ones.",
  options: { deep: { type: "boolean" } },
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const r = engine.sweep(true, ctx.values.deep === true);
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify(r, null, 2));
        return 0;
      }
      ctx.io.out(
        `swept: ${r.expired} expired, ${r.evicted} evicted, ${r.tombstonesDropped} old tombstones dropped, ` +
          `${r.orphanFiles + r.tempFiles} leftover files removed, ${r.repairedRows} rows repaired, ` +
          `${r.recovered} recovered, ${r.quarantined} quarantined; store ${fmtBytes(r.usedBytes)} of ${fmtBytes(r.capBytes)}`,
      );
      return 0;
    }),
};
