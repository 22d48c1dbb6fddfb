import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarList } from "./BarList";

describe("BarList", () => {
  it("prints each group's exact net figure beside its bar, negative ones in the warning colour", () => {
    const html = renderToStaticMarkup(
      <BarList
        unit="tokens"
        emptyText="none"
        bars={[
          { key: "read_file", returned: 20_000, given: 2_000, pulled: 900, net: 17_100 },
          { key: "grep", returned: 100, given: 100, pulled: 400, net: -400 },
        ]}
      />,
    );
    expect(html).toContain('data-key="read_file"');
    expect(html).toContain('data-net="17100"');
    expect(html).toContain(">17,100<");
    expect(html).toContain(">-400<");
    expect(html).toContain("var(--bar-neg)");
  });

  it("says so when there is nothing to draw", () => {
    expect(renderToStaticMarkup(<BarList unit="tokens" emptyText="No calls yet." bars={[]} />)).toContain("No calls yet.");
  });
});
