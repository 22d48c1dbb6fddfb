/** The tray's figures, read from the engine's store: sessions, stored blobs, tokens saved today. */
import type { Engine } from "../../core/engine/engineApi";
import type { TrayFigures } from "./trayMenu";

/** The UTC day key the savings table groups by ("2026-01-31"). */
function utcDayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function readTrayFigures(engine: Pick<Engine, "reader" | "savings" | "clock">): TrayFigures {
  const now = engine.clock.now();
  const dayStart = Date.parse(`${utcDayKey(now)}T00:00:00.000Z`);
  const stats = engine.reader.stats();
  const today = engine.savings("day", dayStart).find((r) => r.key === utcDayKey(now));
  return {
    sessions: stats.sessions,
    blobs: stats.blobs.live + stats.blobs.pinned,
    tokensSavedToday: today?.netTokens ?? 0,
    tokensEstimated: (today?.estimatedTokenCounts ?? 0) > 0,
  };
}
