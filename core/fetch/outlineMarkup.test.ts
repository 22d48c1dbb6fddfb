import { fixture } from "./fetchTestUtil";
import { buildOutline } from "./outline";

describe("Markdown outline", () => {
  it("lists the heading tree with 0-based lines, skipping # comments inside code fences", () => {
    const md = fixture("harbor-sync-README.md");
    const lines = md.split("\n");
    const out = buildOutline(md, "markdown").split("\n");
    expect(out[0]).toBe("Markdown outline: 274 lines, 15 headings, 12 code blocks, 1 table");
    for (const h of out.slice(1)) {
      const [, n, title] = /^L(\d+) +#+ (.*)$/.exec(h)!;
      expect(lines[Number(n)]).toMatch(new RegExp(`^#+ ${title!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    }
    expect(out).not.toContain("L30   # Linux and macOS");
    expect(out).toContain("L103   ## Retries and timeouts");
  });

  it("reads setext headings", () => {
    expect(buildOutline("Title\n=====\n\ntext\n\nPart\n----\nmore\n", "markdown").split("\n").slice(1)).toEqual([
      "L0 # Title",
      "L5   ## Part",
    ]);
  });
});

describe("HTML outline", () => {
  it("gives the title and heading tree, ignoring scripts, styles and comments", () => {
    const out = buildOutline(fixture("status-page.html"), "html").split("\n");
    expect(out[0]).toBe(
      "HTML outline: 45 lines, 7 headings, 3 links, 1 table, 1 form, 1 image; title: Acme Cloud & Status — Incident history",
    );
    expect(out.slice(1)).toEqual([
      "L16 # Incident history",
      "L20   ## May 2024",
      "L22     ### Elevated error rates in eu-west-1",
      "L27     ### Delayed webhook delivery",
      "L32   ## April 2024",
      "L34     ### Scheduled maintenance: database upgrade",
      "L40       #### Contact",
    ]);
  });
});

describe("XML outline", () => {
  it("gives the element tree with counts, attributes and first lines", () => {
    const out = buildOutline(fixture("catalog.xml"), "xml").split("\n");
    expect(out).toEqual([
      "XML outline: 19 elements, depth 5, 8 distinct paths (lines are first occurrences)",
      "L2 <catalog xmlns:g generated> ×1",
      "L3   <store id currency> ×2",
      "L4     <product sku active> ×3",
      "L5       <title> ×3",
      "L6       <price> ×3",
      "L7       <g:availability> ×2",
      "L8       <variants> ×2",
      "L9         <variant size stock> ×3",
    ]);
  });

  it("outlines a document cut off mid-way", () => {
    const xml = fixture("catalog.xml");
    expect(buildOutline(xml.slice(0, xml.indexOf("<price>99.00")), "xml")).toContain("<product sku active> ×3");
  });
});
