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
  attach(res: ServerResponse): void;
  push(e: Pushed): void;
  close(): void;
  readonly clients: number;
}

export function createEventHub(engine: Engine, extraHeaders: Record<string, string> = {}): EventHub {
  const clients = new Set<ServerResponse>();
  const maxEventId = () => engine.reader.lastEventId();
  let lastSeen = maxEventId();

  const push = (e: Pushed) => {
    const line = `data: ${JSON.stringify(e)}\n\n`;
    for (const res of clients) res.write(line);
  };
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
  const beat = setInterval(() => {
    for (const res of clients) res.write(": ping\n\n");
  }, HEARTBEAT_MS);
  poll.unref();
  beat.unref();

  return {
    attach(res) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        ...extraHeaders,
      });
      res.write("retry: 2000\n\n");
      clients.add(res);
      res.on("close", () => clients.delete(res));
    },
    push,
    close() {
      stopEngine();
      clearInterval(poll);
      clearInterval(beat);
      for (const res of clients) res.end();
      clients.clear();
    },
    get clients() {
      return clients.size;
    },
  };
}
