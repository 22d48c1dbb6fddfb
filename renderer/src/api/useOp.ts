/** Hooks over the query cache, keyed by contract operation and request. */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { InspectorError, OpName, Req, Res, Result } from "../../../core/inspector/api/contract";
import { useCache } from "./ApiProvider";
import { queryKey, type Entry } from "./queryCache";

export interface OpState<T> {
  data: T | undefined;
  error: InspectorError | undefined;
  /** First load of this request, with nothing to show yet. */
  loading: boolean;
  /** Showing earlier data while newer data loads. */
  refreshing: boolean;
  /** `data` answers an earlier request (the filter before this one): fine for layout, wrong for a count or "nothing matches". */
  stale: boolean;
  refetch: () => void;
}

/**
 * Reads an operation's answer. While a new request loads (the user typed in a filter), the
 * previous answer stays on screen, so the layout does not jump.
 */
export function useOp<K extends OpName>(op: K, req: Req<K>, opts: { enabled?: boolean } = {}): OpState<Res<K>> {
  const cache = useCache();
  const enabled = opts.enabled ?? true;
  const key = queryKey(op, req);
  // The request object is new on every render; the key says when it really changed.
  const reqRef = useRef(req);
  reqRef.current = req;
  const subscribe = useCallback((cb: () => void) => cache.subscribe(op, reqRef.current, cb), [cache, op, key]);
  const entry = useSyncExternalStore(subscribe, () => cache.snapshot(op, reqRef.current)) as Entry<Res<K>>;
  useEffect(() => {
    if (enabled) void cache.ensure(op, reqRef.current);
  }, [cache, op, key, enabled, entry.status]);
  const last = useRef<Entry<Res<K>> | null>(null);
  if (entry.data !== undefined || entry.status === "error") last.current = entry;
  const shown = entry.data !== undefined || entry.status === "error" ? entry : last.current;
  const refetch = useCallback(() => void cache.refetch(op, reqRef.current), [cache, op, key]);
  return {
    data: shown?.data,
    error: entry.status === "error" ? entry.error : undefined,
    loading: shown === null || (shown.data === undefined && entry.status !== "error"),
    refreshing: entry.refreshing || (shown !== entry && entry.status === "loading"),
    stale: shown !== null && shown.key !== entry.key,
    refetch,
  };
}

/** Runs an operation that changes something; the pushed events refresh the views that show it. */
export function useMutation<K extends OpName>(op: K, invalidates: OpName[] = []) {
  const cache = useCache();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<InspectorError | undefined>(undefined);
  const run = useCallback(
    async (req: Req<K>): Promise<Result<Res<K>>> => {
      setPending(true);
      setError(undefined);
      const r = await cache.call(op, req);
      setPending(false);
      if (!r.ok) setError(r.error);
      // Refresh at once instead of waiting for the pushed event (the stream may be reconnecting).
      else if (invalidates.length) cache.invalidate(invalidates);
      return r;
    },
    [cache, op, invalidates.join(",")],
  );
  return { run, pending, error };
}
