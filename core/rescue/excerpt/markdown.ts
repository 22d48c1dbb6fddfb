/**
 * Markdown excerpt: the heading outline (with 0-based line numbers) and the head of the
 * document. Headings inside fenced code blocks are not headings (`# comment` in a shell
 * snippet), so fences are tracked.
 */
import { fitPlan, type Block } from "../budget";
import { clipEnd, fmtInt, oneLine } from "../format";
import { edgeWindows } from "./plain";

export interface MdHeading {
  line: number;
  text: string;
}

/** ATX headings outside code fences, scanning lines with indexOf. */
export function markdownHeadings(text: string, max = 300): { headings: MdHeading[]; count: number } {
  const headings: MdHeading[] = [];
  let count = 0;
  let fence = "";
  let line = 0;
  for (let s = 0; s < text.length; line++) {
    let e = text.indexOf("\n", s);
    if (e === -1) e = text.length;
    const c = text.charCodeAt(s);
    if (c === 96 || c === 126 || c === 32) {
      const m = /^ {0,3}(`{3,}|~{3,})/.exec(text.slice(s, Math.min(e, s + 16)));
      if (m) {
        if (!fence) fence = m[1]!;
        else if (m[1]!.startsWith(fence)) fence = "";
      }
    } else if (c === 35 && !fence) {
      const l = text.slice(s, Math.min(e, s + 300));
      if (/^#{1,6}(\s|$)/.test(l)) {
        count++;
        if (headings.length < max) headings.push({ line, text: clipEnd(oneLine(l.trimEnd()), 160) });
      }
    }
    s = e + 1;
  }
  return { headings, count };
}

/** Excerpt of a Markdown document. */
export function markdownExcerpt(text: string, cap: number): string {
  const { headings, count } = markdownHeadings(text);
  const win = edgeWindows(text, cap);
  const head = [...win.head, ...(text.length <= 2 * (cap + 1) ? win.tail : [])];
  const blocks: Block[] = [];
  if (headings.length > 0) {
    blocks.push({ type: "fixed", text: `headings (${fmtInt(count)}, 0-based line numbers):` });
    blocks.push({ type: "section", role: "anchors", units: headings.map((h) => `  line ${h.line}: ${h.text}`) });
    blocks.push({ type: "note", render: (s) => (s.anchors < count ? `  … ${fmtInt(count - s.anchors)} more headings` : "") });
    blocks.push({ type: "fixed", text: "document start:" });
  }
  blocks.push({ type: "section", role: "head", units: head });
  blocks.push({
    type: "note",
    render: (s) => {
      const n = win.totalLines - s.head;
      return n > 0 ? `… ${fmtInt(n)} more lines (from line ${s.head}) …` : "";
    },
  });
  return fitPlan(blocks, cap, text.length).text;
}
