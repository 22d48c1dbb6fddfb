/** The current hash route as React state. */
import { useSyncExternalStore } from "react";
import { formatRoute, parseRoute, type Route } from "./route";

function subscribe(cb: () => void): () => void {
  window.addEventListener("hashchange", cb);
  return () => window.removeEventListener("hashchange", cb);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}

export function navigate(r: Route, replace = false): void {
  const target = formatRoute(r);
  if (replace) window.history.replaceState(null, "", target);
  if (replace) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else window.location.hash = target;
}
