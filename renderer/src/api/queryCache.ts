/**
 * Renderer data, kept outside components: one entry per (operation, request), fetched on
 * demand, refreshed when a pushed event invalidates its operation. Entries are immutable
 * snapshots, so `useSyncExternalStore` sees a change as a new object.
 */
import type { InspectorError, OpName, Req, Res, Result } from "../../../core/inspector/api/contract";
import { Connection } from "./connection";
import type { Transport } from "./transport";

export interface Entry<T = unknown> {
  key: string;
  op: OpName;
  status: "idle" | "loading" | "ok" | "error";
  data: T | undefined;
  error: InspectorError | undefined;
  /** true while a refresh runs over data that is still shown. */
  refreshing: boolean;
  updatedAt: number;
}

interface Slot {
  entry: Entry;
  req: unknown;
  stale: boolean;
  inflight: Promise<void> | null;
  listeners: Set<() => void>;
  lastUsed: number;
  /** How long the last fetch took, and when it ended (ms): the next refresh waits in proportion. */
  cost: number;
  endedAt: number;
  /** A refresh waiting for its turn (see REFRESH_DUTY). */
  timer: ReturnType<typeof setTimeout> | null;
  /** Invalidated by the user's own action while a fetch ran: refresh at once when it ends. */
  urgent: boolean;
}

/** Entries kept without subscribers; the least recently used go first. */
const MAX_IDLE_ENTRIES = 400;

/**
 * The share of time one view's refreshes may keep the engine busy while events keep arriving:
 * after a fetch that took t ms, the next refresh of it starts no sooner than t / REFRESH_DUTY
 * after it began. The engine answering these runs in the process that also answers the agents
 * (the desktop app's main process), and an overview over a year of calls takes 100 ms or more.
 */
export const REFRESH_DUTY = 0.1;

/** Key of a request: the operation and its parameters with object keys sorted. */
export function queryKey(op: OpName, req: unknown): string {
  return op + " " + stableJson(req ?? {});
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(stableJson).join(",") + "]";
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return (
      "{" +
      Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .toSorted()
        .map((k) => JSON.stringify(k) + ":" + stableJson(o[k]))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(v) ?? "null";
}

export class QueryCache {
  private readonly slots = new Map<string, Slot>();
  /**
   * Called when any operation answers "unauthorized" (the session cookie is missing or gone);
   * `afterOutage`: that was the server's first answer after it did not answer (it was restarted).
   */
  onUnauthorized: ((afterOutage: boolean) => void) | null = null;
  /** Whether the server answers; calls and the event stream keep it current. */
  readonly connection = new Connection();

  constructor(readonly transport: Transport) {}

  /** Runs an operation through the transport, noting whether the server answered. */
  async call<K extends OpName>(op: K, req: Req<K>): Promise<Result<Res<K>>> {
    const r = await this.transport.call(op, req);
    if (!r.ok && r.error.code === "unreachable") this.connection.lost();
    else this.answered(!r.ok && r.error.code === "unauthorized");
    return r;
  }

  /**
   * The server answered (a call, or the event stream opened). After it did not, every view
   * refreshes, unless it refused the session. true when this ended an outage.
   */
  answered(unauthorized = false): boolean {
    const back = this.connection.answered();
    if (unauthorized) this.onUnauthorized?.(back);
    else if (back) this.invalidate("all");
    return back;
  }

  private slot(op: OpName, req: unknown): Slot {
    const key = queryKey(op, req);
    let s = this.slots.get(key);
    if (!s) {
      s = {
        entry: { key, op, status: "idle", data: undefined, error: undefined, refreshing: false, updatedAt: 0 },
        req,
        stale: true,
        inflight: null,
        listeners: new Set(),
        lastUsed: Date.now(),
        cost: 0,
        endedAt: 0,
        timer: null,
        urgent: false,
      };
      this.slots.set(key, s);
      this.trim();
    }
    return s;
  }

  private set(s: Slot, patch: Partial<Entry>): void {
    s.entry = { ...s.entry, ...patch };
    for (const l of s.listeners) l();
  }

  snapshot<K extends OpName>(op: K, req: Req<K>): Entry<Res<K>> {
    return this.slot(op, req).entry as Entry<Res<K>>;
  }

  subscribe<K extends OpName>(op: K, req: Req<K>, listener: () => void): () => void {
    const s = this.slot(op, req);
    s.listeners.add(listener);
    s.lastUsed = Date.now();
    return () => {
      s.listeners.delete(listener);
      s.lastUsed = Date.now();
    };
  }

  /** Fetches unless fresh data is there or a fetch is already running. */
  ensure<K extends OpName>(op: K, req: Req<K>): Promise<void> {
    const s = this.slot(op, req);
    s.lastUsed = Date.now();
    if (s.inflight) return s.inflight;
    if (!s.stale) return Promise.resolve();
    return this.load(s);
  }

  refetch<K extends OpName>(op: K, req: Req<K>): Promise<void> {
    const s = this.slot(op, req);
    s.stale = true;
    return s.inflight ?? this.load(s);
  }

  private load(s: Slot): Promise<void> {
    s.stale = false;
    s.urgent = false;
    if (s.timer) {
      clearTimeout(s.timer);
      s.timer = null;
    }
    this.set(s, s.entry.data === undefined ? { status: "loading" } : { refreshing: true });
    const run = async () => {
      const started = Date.now();
      const r = await this.call(s.entry.op, s.req as never);
      s.inflight = null;
      s.endedAt = Date.now();
      s.cost = s.endedAt - started;
      if (r.ok) this.set(s, { status: "ok", data: r.value, error: undefined, refreshing: false, updatedAt: Date.now() });
      else this.set(s, { status: "error", error: r.error, refreshing: false, updatedAt: Date.now() });
      // Invalidated while in flight: the answer may predate the change, so go again: at once
      // after the user's own action, in turn after an agent's activity.
      if (s.stale && s.listeners.size > 0) {
        if (s.urgent) void this.load(s);
        else this.refreshInTurn(s);
      }
    };
    s.inflight = run();
    return s.inflight;
  }

  /**
   * Marks the operations' entries stale and refreshes those on screen. `paced` (pushed events:
   * an agent's activity) refreshes each in its turn (REFRESH_DUTY); without it (the user's own
   * action) at once.
   */
  invalidate(ops: readonly OpName[] | "all", paced = false): void {
    for (const s of this.slots.values()) {
      if (ops !== "all" && !ops.includes(s.entry.op)) continue;
      s.stale = true;
      if (!paced) s.urgent = true;
      if (s.listeners.size === 0 || s.inflight) continue;
      if (paced) this.refreshInTurn(s);
      else void this.load(s);
    }
  }

  /** Refreshes a stale entry on screen now, or once its last fetch's cost allows (REFRESH_DUTY). */
  private refreshInTurn(s: Slot): void {
    if (s.timer) return;
    const wait = s.endedAt + s.cost * (1 / REFRESH_DUTY - 1) - Date.now();
    if (wait <= 0) {
      void this.load(s);
      return;
    }
    s.timer = setTimeout(() => {
      s.timer = null;
      if (s.stale && s.listeners.size > 0 && !s.inflight) void this.load(s);
    }, wait);
  }

  private trim(): void {
    const idle = [...this.slots.values()].filter((s) => s.listeners.size === 0 && !s.inflight);
    if (idle.length <= MAX_IDLE_ENTRIES) return;
    idle.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const s of idle.slice(0, idle.length - MAX_IDLE_ENTRIES)) this.slots.delete(s.entry.key);
  }
}
