/**
 * The contract's pushed events, delivered to the inspector window over one IPC channel: the
 * engine's own events, endpoint status changes, and ledger growth caused by other processes on
 * the same store (an agent's `spillway mcp`), which this process can only see by looking.
 */
import type { EngineEvent, Pushed } from "../../core/inspector/api/contract";
import type { EndpointStatus } from "../../core/inspector/api/dto";

export interface PushSources {
  onEngineEvent(listener: (e: EngineEvent) => void): () => void;
  onEndpointChange?(listener: (s: EndpointStatus) => void): () => void;
  /** The ledger's newest event id (cheap: one indexed MAX). */
  lastLedgerId(): number;
}

/** Starts forwarding to `send`; returns the stop. `send` must tolerate a closed window. */
export function pushEvents(sources: PushSources, send: (p: Pushed) => void, pollMs = 2000): () => void {
  const safeSend = (p: Pushed) => {
    try {
      send(p);
    } catch {
      // The window went away between the event and the send; the next window re-reads state.
    }
  };
  const readLast = () => {
    try {
      return sources.lastLedgerId();
    } catch {
      return null; // the store is closing
    }
  };
  let last = readLast() ?? 0;
  const offEngine = sources.onEngineEvent((data) => {
    // This process's own writes are announced here; only writes it did not announce are foreign.
    last = readLast() ?? last;
    safeSend({ event: "engine", data });
  });
  const offEndpoint = sources.onEndpointChange?.((data) => safeSend({ event: "endpoint", data })) ?? (() => {});
  const timer = setInterval(() => {
    const now = readLast();
    if (now !== null && now > last) {
      last = now;
      safeSend({ event: "ledger", data: { lastEventId: now } });
    }
  }, pollMs);
  timer.unref?.();
  return () => {
    clearInterval(timer);
    offEngine();
    offEndpoint();
  };
}
