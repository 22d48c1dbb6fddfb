/** Makes the query cache available to hooks, and wires pushed events to invalidation. */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { batchInvalidation, staleOps } from "./invalidation";
import { QueryCache } from "./queryCache";
import type { Transport } from "./transport";

const CacheContext = createContext<QueryCache | null>(null);
const AuthContext = createContext<boolean>(true);

export function ApiProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const [cache] = useState(() => new QueryCache(transport));
  const [authed, setAuthed] = useState(true);
  useEffect(() => {
    cache.onUnauthorized = () => setAuthed(false);
    // An agent's activity refreshes each view in its turn, so a costly view never keeps the engine busy.
    const invalidate = batchInvalidation((ops) => cache.invalidate(ops, true));
    const stop = cache.transport.subscribe(
      (e) => invalidate(staleOps(e)),
      () => cache.invalidate("all"),
    );
    return () => {
      stop();
      cache.onUnauthorized = null;
    };
  }, [cache]);
  return (
    <CacheContext.Provider value={cache}>
      <AuthContext.Provider value={authed}>{children}</AuthContext.Provider>
    </CacheContext.Provider>
  );
}

export function useCache(): QueryCache {
  const c = useContext(CacheContext);
  if (!c) throw new Error("useCache outside ApiProvider");
  return c;
}

/** false once the server said the page is not signed in. */
export function useAuthed(): boolean {
  return useContext(AuthContext);
}
