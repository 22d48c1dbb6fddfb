/** `spillway status`: the store, its use against the cap, and the savings so far. */
import { withEngine, type Command } from "../command";
import { fmtBytes, fmtInt, fmtTokens } from "../format";
import { ESTIMATE_MARK, estimatedResultsNote } from "../../vocabulary";

export const statusCommand: Command = {
  usage: "",
  summary: "Show the store (blobs, size against the cap, sessions) and the savings so far.",
  run: (ctx) =>
    withEngine(ctx, (engine) => {
      const stats = engine.reader.stats();
      const total = engine.savings("total")[0];
      const cap = engine.reader.capBytes();
      if (ctx.values.json) {
        ctx.io.out(JSON.stringify({ home: engine.home, ...stats, capBytes: cap, savings: total ?? null }, null, 2));
        return 0;
      }
      const pct = cap ? ((stats.usedBytes / cap) * 100).toFixed(1) : "0";
      ctx.io.out(
        [
          `home      ${engine.home}`,
          `store     ${fmtBytes(stats.usedBytes)} of ${fmtBytes(cap)} (${pct} %)`,
          `blobs     ${fmtInt(stats.blobs.live)} live, ${fmtInt(stats.blobs.pinned)} pinned, ${fmtInt(stats.blobs.tombstoned)} tombstoned (${fmtInt(stats.blobs.encrypted)} encrypted)`,
          `sessions  ${fmtInt(stats.sessions)}, ${fmtInt(stats.calls)} calls`,
          total
            ? `saved     ${fmtTokens(total.netTokens, total.estimatedTokenCounts + total.pendingTokenCounts)} tokens (${fmtInt(total.netChars)} chars): ${fmtInt(total.rescued)} rescued, ${fmtInt(total.stubbed)} stubbed` +
              (total.estimatedTokenCounts > 0
                ? `\n          ${ESTIMATE_MARK}: token counts of ${estimatedResultsNote(total.estimatedTokenCounts, fmtInt(total.estimatedTokenCounts))}`
                : "") +
              // Calls whose counts are still queued (or were left by a killed process, counted when a
              // server next opens the store) are not in the token figure yet.
              (total.pendingTokenCounts > 0
                ? `\n          ${ESTIMATE_MARK}: ${fmtInt(total.pendingTokenCounts)} ${total.pendingTokenCounts === 1 ? "call is" : "calls are"} not counted in tokens yet (counted in the background by a running serve, spillway mcp or the app)`
                : "")
            : "saved     nothing yet: no tool calls have passed through Spillway",
        ].join("\n"),
      );
      return 0;
    }),
};
