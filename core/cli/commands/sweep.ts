/** `spillway sweep`: expire, evict and repair now. */
import { withEngine, type Command } from "../command";
import { fmtBytes } from "../format";

export const sweepCommand: Command = {
  usage: "",
  summary: "Expire old blobs, enforce the size cap and clean what interrupted writes left.",
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const r = engine.sweep(true);
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify(r, null, 2));
        return 0;
      }
      ctx.io.out(
        `swept: ${r.expired} expired, ${r.evicted} evicted, ${r.tombstonesDropped} old tombstones dropped, ` +
          `${r.orphanFiles + r.tempFiles} leftover files removed, ${r.repairedRows} rows repaired; ` +
          `store ${fmtBytes(r.usedBytes)} of ${fmtBytes(r.capBytes)}`,
      );
      return 0;
    }),
};
