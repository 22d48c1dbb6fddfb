/** HTML excerpt: title, heading outline, then the head and tail of the readable text. */
import { fitPlan, type Block } from "../budget";
import { clipEnd, fmtInt, oneLine } from "../format";
import { extractHtml } from "./htmlText";

const textUnit = (l: string): string => clipEnd(oneLine(l), 600);

/** Excerpt of an HTML page; never contains script or style contents, comments or attributes. */
export function htmlExcerpt(text: string, cap: number): string {
  const doc = extractHtml(text);
  const blocks: Block[] = [];
  if (doc.title) blocks.push({ type: "fixed", text: `title: ${clipEnd(oneLine(doc.title), 160)}` });
  if (doc.headings.length > 0) {
    blocks.push({ type: "fixed", text: "headings (0-based source line):" });
    blocks.push({
      type: "section",
      role: "anchors",
      units: doc.headings.map((h) => `  line ${h.line}: ${"#".repeat(h.level)} ${clipEnd(oneLine(h.text), 160)}`),
    });
  }
  const total = doc.lines.length;
  const half = Math.ceil(total / 2);
  blocks.push({ type: "fixed", text: total > 0 ? "text:" : "text: (none)" });
  blocks.push({ type: "section", role: "head", units: doc.lines.slice(0, half).map(textUnit) });
  blocks.push({
    type: "note",
    render: (s) => {
      const n = total - s.head - s.tail;
      return n > 0 ? `… ${fmtInt(n)} more text ${n === 1 ? "line" : "lines"} …` : "";
    },
  });
  blocks.push({ type: "section", role: "tail", units: doc.lines.slice(half).map(textUnit) });
  return fitPlan(blocks, cap, text.length).text;
}
