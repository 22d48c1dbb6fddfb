/**
 * A count in a view's header or filter bar. While the filter on screen has no answer yet, the
 * count shows "…" (read out as `pending`), never the previous filter's number under the new
 * filter's words: the lists keep the old total for their layout, the count must not.
 */
import type { ReactNode } from "react";

/** Shows `children` (the count's sentence) once `pending` is false; until then a labelled "…". */
export function LiveCount({
  testId,
  pending,
  pendingLabel,
  className = "muted num",
  children,
}: {
  testId: string;
  pending: boolean;
  /** What a screen reader hears instead of the "…", e.g. "counting the matching blobs". */
  pendingLabel: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // aria-busy holds the live region's announcement until the new count is in.
    <span className={className} data-testid={testId} aria-live="polite" aria-busy={pending}>
      {pending ? (
        <>
          <span aria-hidden="true">…</span>
          <span className="sr-only">{pendingLabel}</span>
        </>
      ) : (
        children
      )}
    </span>
  );
}
