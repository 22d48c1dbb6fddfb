/** Makes the query cache available to hooks, wires pushed events to invalidation, and holds the sign-in state. */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import { batchInvalidation, staleOps } from "./invalidation";
import { QueryCache } from "./queryCache";
import type { Transport } from "./transport";

const CacheContext = createContext<QueryCache | null>(null);

/**
 * "in" until the server says otherwise; "restarted" when the first answer after the server did
 * not answer refused the session (sessions end when `spillway serve` stops); "signedOut" after
 * this page signed itself out.
 */
type AuthState = "in" | "out" | "restarted" | "signedOut";

/** How often the page asks again while the server does not answer. */
export const PROBE_MS = 3_000;
interface Auth {
  state: AuthState;
  /** Ends the session on the server; null where there is none (the desktop window). */
  signOut: (() => Promise<string | null>) | null;
}
const AuthContext = createContext<Auth>({ state: "in", signOut: null });

export function ApiProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const [cache] = useState(() => new QueryCache(transport));
  const [state, setState] = useState<AuthState>("in");
  const signedIn = state === "in";
  useEffect(() => {
    // Signed out: no event stream (it would only be refused).
    if (!signedIn) return;
    cache.onUnauthorized = (afterOutage) => setState((s) => (s === "in" ? (afterOutage ? "restarted" : "out") : s));
    // An agent's activity refreshes each view in its turn, so a costly view never keeps the engine busy.
    const invalidate = batchInvalidation((ops) => cache.invalidate(ops, true));
    // A cheap call: whether the server answers, and whether it still knows this page's session.
    const probe = () => void cache.call("endpoint.status", {});
    const stop = cache.transport.subscribe(
      (e) => invalidate(staleOps(e)),
      () => {
        // After an outage `answered` refreshed every view already.
        if (!cache.answered()) cache.invalidate("all");
      },
      probe,
    );
    // While the server does not answer, ask again now and then (the stream may be closed for good).
    let timer: ReturnType<typeof setInterval> | null = null;
    const watch = () => {
      if (cache.connection.state === "down") timer ??= setInterval(probe, PROBE_MS);
      else if (timer) {
        clearInterval(timer);
        timer = null;
      }
    };
    watch();
    const unwatch = cache.connection.subscribe(watch);
    return () => {
      stop();
      unwatch();
      if (timer) clearInterval(timer);
      cache.onUnauthorized = null;
    };
  }, [cache, signedIn]);
  const auth = useMemo<Auth>(() => {
    const end = cache.transport.signOut?.bind(cache.transport);
    return {
      state,
      signOut: end
        ? async () => {
            const r = await end();
            if (!r.ok && r.error.code === "unreachable") cache.connection.lost();
            // Already signed out elsewhere (another tab, an expired session): the page is signed out all the same.
            if (r.ok || r.error.code === "unauthorized") {
              setState("signedOut");
              return null;
            }
            return r.error.message;
          }
        : null,
    };
  }, [cache, state]);
  return (
    <CacheContext.Provider value={cache}>
      <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
    </CacheContext.Provider>
  );
}

export function useCache(): QueryCache {
  const c = useContext(CacheContext);
  if (!c) throw new Error("useCache outside ApiProvider");
  return c;
}

/** false once the server said the page is not signed in, or the page signed out. */
export function useAuthed(): boolean {
  return useContext(AuthContext).state === "in";
}

/** Whether the page lost its session because the server restarted (it did not answer for a while, then refused it). */
export function useServerRestarted(): boolean {
  return useContext(AuthContext).state === "restarted";
}

/** false while the Spillway server does not answer this page (`spillway serve` stopped). */
export function useReachable(): boolean {
  const connection = useCache().connection;
  const subscribe = useCallback((cb: () => void) => connection.subscribe(cb), [connection]);
  return useSyncExternalStore(subscribe, () => connection.state === "up");
}

/** Whether the page is signed out because its user signed out (not because the session ran out). */
export function useSignedOut(): boolean {
  return useContext(AuthContext).state === "signedOut";
}

/** Signs this browser out (the error's sentence when the server refused); null on the desktop. */
export function useSignOut(): (() => Promise<string | null>) | null {
  return useContext(AuthContext).signOut;
}
