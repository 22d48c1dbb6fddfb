/** A value that follows `value` once it has stayed the same for `ms`: typing in a filter asks the server once, not per key. */
import { useEffect, useState } from "react";

export function useDebounced<T>(value: T, ms = 200): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
