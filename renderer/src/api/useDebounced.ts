/**
 * A value that follows `value` once it has stayed the same for `ms`: typing in a filter asks the
 * server once, not per key. `settled` is false while the input on screen is ahead of `value`, so
 * a count under that filter shows as pending instead of the previous filter's number.
 */
import { useEffect, useState } from "react";

export interface Debounced<T> {
  /** What the server is asked for: the input as it was `ms` ago, once it stopped changing. */
  value: T;
  /** The input on screen is what `value` holds (compared with Object.is, so pass strings or stable values). */
  settled: boolean;
}

/** Follows `value` after a pause of `ms`, and says whether it has caught up. */
export function useDebounced<T>(value: T, ms = 200): Debounced<T> {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  // Derived in render, not kept in state: the frame that shows the new text already knows it is unsettled.
  return { value: v, settled: Object.is(v, value) };
}
