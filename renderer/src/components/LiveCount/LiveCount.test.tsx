import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LiveCount } from "./LiveCount";

describe("LiveCount", () => {
  it("shows a labelled ellipsis while pending, and not the count it was given", () => {
    const html = renderToStaticMarkup(
      <LiveCount testId="c" pending pendingLabel="counting the matching blobs">
        11 matching
      </LiveCount>,
    );
    expect(html).not.toContain("11 matching");
    expect(html).toContain('<span aria-hidden="true">…</span>');
    expect(html).toContain('<span class="sr-only">counting the matching blobs</span>');
    expect(html).toContain('aria-busy="true"');
  });

  it("shows the count once its answer is in, as a polite live region", () => {
    const html = renderToStaticMarkup(
      <LiveCount testId="c" pending={false} pendingLabel="counting the matching blobs">
        1 matching
      </LiveCount>,
    );
    expect(html).toBe('<span class="muted num" data-testid="c" aria-live="polite" aria-busy="false">1 matching</span>');
  });
});
