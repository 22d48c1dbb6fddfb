/**
 * Server-sent events for the web inspector: the engine's events as they happen, a nudge when
 * another process (an agent's `spillway mcp`) wrote to the same store, and endpoint changes.
 */
import type { ServerResponse } from "node:http";
import type { Engine } from "../../engine/engineApi";
import type { Pushed } from "../api/contract";

/** How often the ledger is checked for writes by other processes. */
const LEDGER_POLL_MS = 1_500;
/** A comment line keeps idle connections from being closed by anything in between. */
const HEARTBEAT_MS = 25_000;

export interface EventHub {
  /** `signedIn`: whether the stream's reader may still read (its session not ended or expired). */
  attach(res: ServerResponse, signedIn?: () => boolean): void;
  push(e: Pushed): void;
  /** Ends the streams whose session ended (a sign-out), at once rather than at the next event. */
  recheck(): void;
  close(): void;
  readonly clients: number;
}

export function createEventHub(engine: Engine, extraHeaders: Record<string, string> = {}): EventHub {
  const clients = new Map<ServerResponse, () => boolean>();
  const maxEventId = () => engine.reader.lastEventId();
  let lastSeen = maxEventId();

  /** Writes to every stream still signed in, and ends the others. */
  const write = (text: string | null) => {
    for (const [res, signedIn] of clients) {
      if (!signedIn()) {
        clients.delete(res);
        res.end();
      } else if (text !== null) res.write(text);
    }
  };
  const push = (e: Pushed) => write(`data: ${JSON.stringify(e)}\n\n`);
  const stopEngine = engine.onEvent((data) => {
    // This process's own writes arrive here; only writes it did not announce count as foreign.
    if (engine.reader.open) lastSeen = maxEventId();
    push({ event: "engine", data });
  });
  const poll = setInterval(() => {
    if (clients.size === 0 || !engine.reader.open) return;
    const id = maxEventId();
    if (id > lastSeen) {
      lastSeen = id;
      push({ event: "ledger", data: { lastEventId: id } });
    }
  }, LEDGER_POLL_MS);
  // The beat also ends the streams of sessions that expired since their last event.
  const beat = setInterval(() => write(": ping\n\n"), HEARTBEAT_MS);
  poll.unref();
  beat.unref();

  return {
    attach(res, signedIn = () => true) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        ...extraHeaders,
      });
      res.write("retry: 2000\n\n");
      clients.set(res, signedIn);
      res.on("close", () => clients.delete(res));
    },
    push,
    recheck: () => write(null),
    close() {
      stopEngine();
      clearInterval(poll);
      clearInterval(beat);
      for (const res of clients.keys()) res.end();
      clients.clear();
    },
    get clients() {
      return clients.size;
    },
  };
}
