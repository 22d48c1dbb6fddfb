/**
 * What the client of one MCP-over-HTTP session is still owed: the requests it sent whose answers
 * it has not received. While it is owed anything the session must not be closed to make room
 * (httpSessions.ts): with polling (httpPolling.ts), or after a dropped connection, the client is
 * away between the close of its stream and its resume, and the answer (maybe of a call with side
 * effects) exists only in the session's event store.
 *
 * An answer counts as received once its SSE event was flushed onto a connection of the session, or
 * once the client resumed its stream from an event at or past it (a Last-Event-ID says the client
 * holds everything before it on that stream). An answer the resume buffer dropped is owed no more:
 * a resume would be refused anyway. Flushed is not read: a write into a connection that died
 * unnoticed counts as received, and if the client then resumes from an earlier event, the replay
 * sends the answer again on a stream that is open, which keeps the session anyway.
 */
import type { ServerResponse } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CancelledNotificationSchema,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { TransportWrapper } from "./transportWrapper";

/** Where a request's answer waits: its event's sequence number in the session's store, and its stream. */
interface Answer {
  seq: number;
  stream: string;
}

/** Requests tracked at most per session; past it the oldest is forgotten (a client never has that many open). */
const MAX_OWED = 4_096;

export class DeliveryLedger {
  /** Request id → its answer once stored (null while the call runs). A Map keeps arrival order. */
  private readonly owed = new Map<RequestId, Answer | null>();
  private readonly bySeq = new Map<number, RequestId>();

  /** Requests whose answers the client has not received: `owed` in all, `ready` of them answered and waiting to be collected. */
  get size(): { owed: number; ready: number } {
    return { owed: this.owed.size, ready: this.bySeq.size };
  }

  /** A request came in. */
  asked(id: RequestId): void {
    this.forget(id);
    this.owed.set(id, null);
    if (this.owed.size > MAX_OWED) this.forget(this.owed.keys().next().value as RequestId);
  }

  /** The client cancelled a request: no answer will be sent for it. */
  cancelled(id: RequestId): void {
    this.forget(id);
  }

  /** The answer to `id` was stored as event `seq` of `stream`. */
  answered(id: RequestId, seq: number, stream: string): void {
    if (!this.owed.has(id)) return;
    this.owed.set(id, { seq, stream });
    this.bySeq.set(seq, id);
  }

  /** Event `seq` was flushed onto a connection. */
  sent(seq: number): void {
    const id = this.bySeq.get(seq);
    if (id !== undefined) this.forget(id);
  }

  /** The client resumed `stream` after event `seq`: it holds every event of that stream up to it. */
  resumed(stream: string, seq: number): void {
    for (const [id, a] of this.owed) if (a && a.stream === stream && a.seq <= seq) this.forget(id);
  }

  /** The resume buffer dropped event `seq`: no resume can deliver it any more. */
  dropped(seq: number): void {
    this.sent(seq);
  }

  private forget(id: RequestId): void {
    const a = this.owed.get(id);
    if (a) this.bySeq.delete(a.seq);
    this.owed.delete(id);
  }
}

/** A transport that tells the ledger which requests came in and which the client cancelled. */
export class DeliveryTransport extends TransportWrapper {
  constructor(
    inner: Transport,
    private readonly ledger: DeliveryLedger,
  ) {
    super(inner);
  }

  protected override received(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isJSONRPCRequest(message)) this.ledger.asked(message.id);
    else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const c = CancelledNotificationSchema.safeParse(message);
      if (c.success && c.data.params.requestId !== undefined) this.ledger.cancelled(c.data.params.requestId);
    }
    this.onmessage?.(message, extra);
  }
}

/** How far into a chunk the `id:` line of an SSE event is looked for: the SDK writes it before the data. */
const HEAD_BYTES = 512;

/** The id of the SSE event a chunk starts, or null (a keep-alive comment, or not SSE). */
export function sseEventId(chunk: unknown): string | null {
  let head: string;
  if (typeof chunk === "string") head = chunk.slice(0, HEAD_BYTES);
  else if (chunk instanceof Uint8Array)
    head = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, HEAD_BYTES)).toString("latin1");
  else return null;
  // Only the fields before the data: an "id:" inside a message's text is not the event's.
  const data = head.search(/(?:^|\n)data:/);
  const fields = data < 0 ? head : head.slice(0, data + 1);
  return /(?:^|\n)id: ?([^\r\n]+)\r?\n/.exec(fields)?.[1] ?? null;
}

type WriteCallback = (err?: Error | null) => void;

/** Calls `onSent` with the id of each SSE event written on `res`, once it was flushed to the connection. */
export function watchSentEvents(res: ServerResponse, onSent: (eventId: string) => void): void {
  const write = res.write as (this: ServerResponse, ...args: unknown[]) => boolean;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
    const id = sseEventId(chunk);
    if (id === null) return write.call(this, chunk, ...rest);
    const last = rest.at(-1);
    const then = typeof last === "function" ? (rest.pop() as WriteCallback) : undefined;
    return write.call(this, chunk, ...rest, (err?: Error | null) => {
      if (!err) onSent(id);
      then?.(err);
    });
  } as ServerResponse["write"];
}
