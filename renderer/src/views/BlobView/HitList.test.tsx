import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HitList } from "./HitList";

describe("HitList", () => {
  it("renders each place as a button with its line and the match marked, as text only", () => {
    const html = renderToStaticMarkup(
      <HitList
        onJump={() => {}}
        jumps={[
          { line: 31337, startCol: 7, endCol: 17, text: "FATAL: disk quota exceeded <img src=x onerror=alert(1)>" },
          { line: 12, startCol: 5_010, endCol: 5_014, text: "abcd".repeat(30), textStart: 5_000 },
        ]}
      />,
    );
    expect(html).toContain('data-line="31337"');
    expect(html).toContain("L31337");
    expect(html).toContain("<mark>disk quota</mark>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img");
    // A slice of a long line: the mark sits at the match, after an ellipsis.
    expect(html).toContain("…");
    expect(html).toMatch(/<mark>[a-d]{4}<\/mark>/);
  });
});
