/**
 * The SSE events of one MCP-over-HTTP session, kept so a client that lost a stream (a dropped
 * connection, or a stream Spillway closed to make it poll) can reconnect with Last-Event-ID and
 * get what it missed. One store per session, so an event of one session can never replay into
 * another: ids carry a random per-session prefix, and any other id is refused as foreign.
 *
 * Memory is bounded: past `maxChars` (the JSON of the messages) or `maxEvents`, the oldest events
 * are dropped; the newest one is always kept, even when it alone is over the cap. A client that
 * resumes from a dropped event is refused ("expired") rather than given a stream with a hole in it.
 *
 * The store tells the session's delivery ledger (httpDelivery.ts) where each answer waits, which
 * events the client holds (a resume) and which are gone (dropped), so the session is known to owe
 * its client an answer until the client has it.
 */
import { randomBytes } from "node:crypto";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isJSONRPCErrorResponse, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { DeliveryLedger } from "./httpDelivery";

export interface EventStoreLimits {
  /** Characters of message JSON kept at most (config server.resumeBufferKB × 1024). */
  maxChars: number;
  /** Events kept at most. */
  maxEvents: number;
}

/** What a Last-Event-ID means to this session's store. */
export type EventIdCheck = "ok" | "foreign" | "expired";

interface Kept {
  stream: string;
  message: JSONRPCMessage;
  chars: number;
}

export class SessionEventStore implements EventStore {
  private readonly prefix = randomBytes(6).toString("hex");
  private next = 1;
  /** Events by sequence number; a Map keeps insertion order, which is sequence order. */
  private readonly events = new Map<number, Kept>();
  private chars = 0;

  constructor(
    private readonly limits: EventStoreLimits,
    private readonly ledger?: DeliveryLedger,
  ) {}

  /** Events and characters held now, for status pages and tests. */
  get size(): { events: number; chars: number } {
    return { events: this.events.size, chars: this.chars };
  }

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.next++;
    const chars = JSON.stringify(message).length;
    this.events.set(seq, { stream, message, chars });
    this.chars += chars;
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined)
      this.ledger?.answered(message.id, seq, stream);
    this.trim();
    return `${this.prefix}-${seq}`;
  }

  /** Event `id` (one of this session's, written by the SDK) was flushed onto a connection. */
  sent(id: string): void {
    const seq = this.seqOf(id);
    if (seq !== null) this.ledger?.sent(seq);
  }

  /** Whether `id` is an event of this session that is still kept. */
  check(id: string): EventIdCheck {
    const seq = this.seqOf(id);
    if (seq === null) return "foreign";
    return this.events.has(seq) ? "ok" : "expired";
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    const seq = this.seqOf(id);
    return seq === null ? undefined : this.events.get(seq)?.stream;
  }

  async replayEventsAfter(lastId: string, { send }: { send: (id: string, m: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const seq = this.seqOf(lastId);
    const from = seq === null ? undefined : this.events.get(seq);
    // The SDK asks getStreamIdForEventId first; this only guards a race with trim().
    if (seq === null || !from) return "";
    this.ledger?.resumed(from.stream, seq);
    // The live map: an event stored while the replay awaits is not on any stream yet, so it goes out here too.
    for (const [s, e] of this.events) {
      if (s > seq && e.stream === from.stream) await send(`${this.prefix}-${s}`, e.message);
    }
    return from.stream;
  }

  private seqOf(id: string): number | null {
    const dash = id.lastIndexOf("-");
    if (dash < 0 || id.slice(0, dash) !== this.prefix) return null;
    const seq = Number(id.slice(dash + 1));
    if (!Number.isSafeInteger(seq) || seq < 1 || seq >= this.next) return null;
    return seq;
  }

  private trim(): void {
    while (this.events.size > 1 && (this.chars > this.limits.maxChars || this.events.size > this.limits.maxEvents)) {
      const [seq, e] = this.events.entries().next().value as [number, Kept];
      this.events.delete(seq);
      this.chars -= e.chars;
      this.ledger?.dropped(seq);
    }
  }
}
