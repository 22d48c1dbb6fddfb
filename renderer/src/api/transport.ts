/**
 * How the renderer reaches the inspector API. Web mode: HTTP POST /api/<op> and one SSE
 * stream. The desktop app hands in `window.spillway` (the same contract over IPC) instead (main.tsx).
 */
import type { InspectorApi, OpName, Pushed, Req, Res, Result } from "../../../core/inspector/api/contract";

export interface Transport {
  call<K extends OpName>(op: K, req: Req<K>): Promise<Result<Res<K>>>;
  /**
   * Pushed events; `onReconnect` fires when the stream came back (events may have been missed),
   * `onBreak` when it broke (the server may be gone, or may have refused the session: a call tells).
   */
  subscribe(listener: (e: Pushed) => void, onReconnect?: () => void, onBreak?: () => void): () => void;
  /** Ends this browser's session on the server (web mode only: the desktop window has no session). */
  signOut?(): Promise<Result<{ signedOut: boolean }>>;
}

/** How long a closed event stream waits before the page opens a new one. */
export const REOPEN_MS = 3_000;

/** Web mode. The HttpOnly session cookie authenticates; nothing secret lives in page script. */
export function webTransport(base = ""): Transport {
  /** A JSON POST as the server's guard wants it from its own page (same origin, JSON body). */
  async function post<T>(path: string, body: unknown): Promise<Result<T>> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify(body ?? {}),
      });
    } catch {
      return {
        ok: false,
        error: { code: "unreachable", message: "The Spillway server does not answer. Is `spillway serve` still running?" },
      };
    }
    if (res.status === 401) {
      return { ok: false, error: { code: "unauthorized", message: "Not signed in: open the login link that `spillway serve` printed." } };
    }
    try {
      return (await res.json()) as Result<T>;
    } catch {
      return { ok: false, error: { code: "internal", message: `The server answered ${res.status} without a result.` } };
    }
  }
  return {
    call: (op, req) => post(`/api/${op}`, req),
    signOut: () => post("/logout", {}),
    subscribe(listener, onReconnect, onBreak) {
      let es: EventSource | null = null;
      let opened = false;
      let reopen: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      const connect = () => {
        reopen = null;
        const s = new EventSource(`${base}/api/events`, { withCredentials: true });
        es = s;
        s.addEventListener("open", () => {
          if (opened) onReconnect?.();
          opened = true;
        });
        s.addEventListener("message", (m) => {
          try {
            listener(JSON.parse(m.data as string) as Pushed);
          } catch {
            /* a malformed event is dropped; the next one refreshes anyway */
          }
        });
        s.addEventListener("error", () => {
          onBreak?.();
          // The browser retries a dropped stream by itself, but not one that was refused (a 401
          // from a restarted server) or that it gave up on: open a new one in a while.
          if (s.readyState === EventSource.CLOSED && !stopped && !reopen) reopen = setTimeout(connect, REOPEN_MS);
        });
      };
      connect();
      return () => {
        stopped = true;
        if (reopen) clearTimeout(reopen);
        es?.close();
      };
    },
  };
}

/** The desktop preload's nested API (`api.blobs.list(req)`) seen as a transport. */
export function apiTransport(api: InspectorApi): Transport {
  return {
    call(op, req) {
      const [ns, method] = op.split(".") as [string, string];
      const group = (api as unknown as Record<string, Record<string, (r: unknown) => Promise<Result<unknown>>>>)[ns];
      return group![method]!(req) as never;
    },
    subscribe: (listener) => api.subscribe(listener),
  };
}
