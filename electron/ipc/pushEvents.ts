/**
 * The contract's pushed events, delivered to the inspector window over one IPC channel: the
 * engine's own events, endpoint status changes, and ledger growth caused by other processes on
 * the same store (an agent's `spillway mcp`), which this process can only see by looking.
 */
import type { EngineEvent, Pushed } from "../../core/inspector/contract";
import type { EndpointStatus } from "../../core/inspector/dto";

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
  const offEngine = sources.onEngineEvent((data) => safeSend({ event: "engine", data }));
  const offEndpoint = sources.onEndpointChange?.((data) => safeSend({ event: "endpoint", data })) ?? (() => {});
  let last = sources.lastLedgerId();
  const timer = setInterval(() => {
    let now: number;
    try {
      now = sources.lastLedgerId();
    } catch {
      return; // the store is closing
    }
    if (now !== last) {
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
