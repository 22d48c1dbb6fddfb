/** Says, above every view, that the Spillway server stopped answering and that the page reconnects by itself. */
import { useReachable } from "../../api/ApiProvider";

export function ServerGone() {
  const reachable = useReachable();
  if (reachable) return null;
  return (
    <div className="callout bad server-gone" role="alert" data-testid="server-gone">
      <strong>The Spillway server does not answer.</strong> Was <code className="mono">spillway serve</code> stopped? This page reconnects
      by itself once it runs again and then refreshes what it shows; until then, what you see may be out of date.
    </div>
  );
}
