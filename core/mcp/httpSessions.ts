/**
 * The open MCP sessions of the HTTP endpoint and their lifetimes. Clients rarely send DELETE, so a
 * session nobody has used for `idleMs` is reaped, and past `maxSessions` the least recently used
 * one makes room. Neither happens to a session that is held: one with a request being answered, an
 * open stream (a client listening), or answers its client has not received yet (a call still
 * running, or its answer waiting in the event store for the client to resume after a poll or a
 * dropped connection). That last hold lasts at most `graceMs` after the client was last seen, so a
 * client that never comes back cannot pin a slot. When every session is held, a new one is refused
 * rather than one of them closed: opening sessions never takes an answer away from another client.
 * Time comes from an injected clock, so tests move it instead of waiting.
 */
import type { Clock } from "../runtime";

export interface SessionEntry<T> {
  value: T;
  /** When the client's initialize opened it. */
  openedAt: number;
  lastSeen: number;
  /** POSTs being answered. */
  inflight: number;
  /** Open GET streams (a client listening for notifications is not gone). */
  streams: number;
}

export type EndReason = "idle" | "evicted";

/** Why a session may not be closed now. */
export type Hold = "request" | "stream" | "owed";

export interface SessionTableOptions<T> {
  clock: Clock;
  idleMs: number;
  maxSessions: number;
  /** How long after its client was last seen a session that still owes it answers is held (config server.resumeGraceMs). */
  graceMs: number;
  /** Whether the session's client is still owed answers (httpDelivery.ts). */
  owes: (value: T) => boolean;
}

/** How many ended ids are remembered, to tell a client why its session is gone. */
const REMEMBER_ENDED = 1024;

export class SessionTable<T> {
  private readonly live = new Map<string, SessionEntry<T>>();
  private readonly ended = new Map<string, EndReason>();

  constructor(private readonly opts: SessionTableOptions<T>) {}

  get size(): number {
    return this.live.size;
  }

  get(id: string): SessionEntry<T> | undefined {
    return this.live.get(id);
  }

  /** Why a session that is no longer open ended, when it was reaped or evicted recently. */
  endReason(id: string): EndReason | undefined {
    return this.ended.get(id);
  }

  entries(): [string, SessionEntry<T>][] {
    return [...this.live];
  }

  /** Why the session may not be closed now, or null when nothing holds it. */
  hold(e: SessionEntry<T>): Hold | null {
    if (e.inflight > 0) return "request";
    if (e.streams > 0) return "stream";
    if (this.opts.clock.now() - e.lastSeen < this.opts.graceMs && this.opts.owes(e.value)) return "owed";
    return null;
  }

  /** How many sessions each hold keeps open now, for the sentence that refuses a new one. */
  holds(): Record<Hold, number> {
    const out: Record<Hold, number> = { request: 0, stream: 0, owed: 0 };
    for (const e of this.live.values()) {
      const h = this.hold(e);
      if (h) out[h]++;
    }
    return out;
  }

  /**
   * Room for one more session: nothing when under the cap, else the id of the least recently used
   * session nothing holds, to end. null means every session is held.
   */
  makeRoom(): { evict: string | null } | null {
    if (this.live.size < this.opts.maxSessions) return { evict: null };
    let best: [string, SessionEntry<T>] | null = null;
    for (const e of this.live) {
      if (this.hold(e[1]) === null && (!best || e[1].lastSeen < best[1].lastSeen)) best = e;
    }
    return best ? { evict: best[0] } : null;
  }

  add(id: string, value: T): SessionEntry<T> {
    const now = this.opts.clock.now();
    const entry = { value, openedAt: now, lastSeen: now, inflight: 0, streams: 0 };
    this.live.set(id, entry);
    return entry;
  }

  /** Marks a request (POST) or stream (GET) as started; the returned function marks it finished. */
  begin(id: string, kind: "request" | "stream"): () => void {
    const e = this.live.get(id);
    if (!e) return () => {};
    const key = kind === "request" ? "inflight" : "streams";
    e[key]++;
    e.lastSeen = this.opts.clock.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      e[key]--;
      e.lastSeen = this.opts.clock.now();
    };
  }

  /** Whether the session's client is connected now: a GET stream open or a request in flight. */
  connected(id: string): boolean {
    const e = this.live.get(id);
    return e !== undefined && (e.streams > 0 || e.inflight > 0);
  }

  /** Forgets a session (closed by the client, or by us with a reason to remember). */
  delete(id: string, reason?: EndReason): void {
    if (!this.live.delete(id) || !reason) return;
    this.ended.set(id, reason);
    if (this.ended.size > REMEMBER_ENDED) this.ended.delete(this.ended.keys().next().value as string);
  }

  /** The sessions idle for longer than the timeout and held by nothing, oldest first. */
  idle(): string[] {
    const cutoff = this.opts.clock.now() - this.opts.idleMs;
    return this.entries()
      .filter(([, e]) => e.lastSeen <= cutoff && this.hold(e) === null)
      .sort((a, b) => a[1].lastSeen - b[1].lastSeen)
      .map(([id]) => id);
  }
}
