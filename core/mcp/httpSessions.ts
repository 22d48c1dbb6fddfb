/**
 * The open MCP sessions of the HTTP endpoint and their lifetimes. Clients rarely send DELETE, so a
 * session nobody has used for `idleMs` (no request in flight, no open stream) is reaped, and past
 * `maxSessions` the least recently used idle one makes room; when every session is busy a new one
 * is refused. Time comes from an injected clock, so tests move it instead of waiting.
 */
import type { Clock } from "../runtime";

export interface SessionEntry<T> {
  value: T;
  lastSeen: number;
  /** POSTs being answered. */
  inflight: number;
  /** Open GET streams (a client listening for notifications is not gone). */
  streams: number;
}

export type EndReason = "idle" | "evicted";

export interface SessionTableOptions {
  clock: Clock;
  idleMs: number;
  maxSessions: number;
}

/** How many ended ids are remembered, to tell a client why its session is gone. */
const REMEMBER_ENDED = 1024;

export class SessionTable<T> {
  private readonly live = new Map<string, SessionEntry<T>>();
  private readonly ended = new Map<string, EndReason>();

  constructor(private readonly opts: SessionTableOptions) {}

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

  /**
   * Room for one more session: nothing when under the cap, else the id of the least recently used
   * idle session to end (one with no open stream first). null means every session is busy.
   */
  makeRoom(): { evict: string | null } | null {
    if (this.live.size < this.opts.maxSessions) return { evict: null };
    let best: [string, SessionEntry<T>] | null = null;
    for (const e of this.live) {
      if (e[1].inflight > 0) continue;
      if (!best || e[1].streams < best[1].streams || (e[1].streams === best[1].streams && e[1].lastSeen < best[1].lastSeen)) best = e;
    }
    return best ? { evict: best[0] } : null;
  }

  add(id: string, value: T): SessionEntry<T> {
    const entry = { value, lastSeen: this.opts.clock.now(), inflight: 0, streams: 0 };
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

  /** Forgets a session (closed by the client, or by us with a reason to remember). */
  delete(id: string, reason?: EndReason): void {
    if (!this.live.delete(id) || !reason) return;
    this.ended.set(id, reason);
    if (this.ended.size > REMEMBER_ENDED) this.ended.delete(this.ended.keys().next().value as string);
  }

  /** The sessions idle for longer than the timeout, oldest first. */
  idle(): string[] {
    const cutoff = this.opts.clock.now() - this.opts.idleMs;
    return this.entries()
      .filter(([, e]) => e.inflight === 0 && e.streams === 0 && e.lastSeen <= cutoff)
      .sort((a, b) => a[1].lastSeen - b[1].lastSeen)
      .map(([id]) => id);
  }
}
