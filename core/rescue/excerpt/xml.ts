/**
 * XML excerpt: an element skeleton (each distinct element path once, with its attribute
 * names, occurrence count and a sample of its text), then the head and tail of the raw text.
 * Repeated records collapse into one skeleton line, which is what makes a 10,000-element feed
 * readable in a few hundred chars.
 */
import { fitPlan, type Block } from "../budget";
import { clipEnd, fmtInt, oneLine, skipWs } from "../format";
import { edgeWindows } from "./plain";

interface XNode {
  name: string;
  count: number;
  attrs: Set<string>;
  children: Map<string, XNode>;
  sample: string;
}

const MAX_NODES = 400;
const MAX_DEPTH = 12;

function node(name: string): XNode {
  return { name, count: 0, attrs: new Set(), children: new Map(), sample: "" };
}

/** The element tree of `text`, merged by path; also the number of elements seen. */
export function xmlSkeleton(text: string): { root: XNode; elements: number } {
  const root = node("");
  const stack: (XNode | null)[] = [root];
  let nodes = 0;
  let elements = 0;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    if (lt === -1) break;
    const top = stack[stack.length - 1];
    if (top && !top.sample && lt > i && skipWs(text, i) < lt) {
      const t = oneLine(text.slice(i, Math.min(lt, i + 200)))
        .replace(/\s+/g, " ")
        .trim();
      if (t) top.sample = clipEnd(t, 40);
    }
    if (text.startsWith("<!--", lt)) {
      const e = text.indexOf("-->", lt);
      i = e === -1 ? text.length : e + 3;
      continue;
    }
    if (text.startsWith("<![CDATA[", lt)) {
      const e = text.indexOf("]]>", lt);
      if (top && !top.sample) top.sample = clipEnd(oneLine(text.slice(lt + 9, Math.min(e === -1 ? text.length : e, lt + 60))).trim(), 40);
      i = e === -1 ? text.length : e + 3;
      continue;
    }
    const gt = text.indexOf(">", lt);
    const end = gt === -1 ? text.length : gt;
    i = end + 1;
    const c = text.charCodeAt(lt + 1);
    if (c === 33 || c === 63) continue;
    const tag = text.slice(lt + 1, Math.min(end, lt + 1 + 2000));
    if (c === 47) {
      const name = tag.slice(1).trim();
      // Untracked elements (too deep or past the node limit) sit on top of tracked ones, so
      // popping one is right; otherwise pop to the matching element, tolerating bad nesting.
      if (stack[stack.length - 1] === null) stack.length--;
      else {
        let k = stack.length - 1;
        while (k > 0 && stack[k]!.name !== name) k--;
        if (k > 0) stack.length = k;
      }
      continue;
    }
    const m = /^[^\s/>]+/.exec(tag);
    if (!m) continue;
    elements++;
    const parent = stack[stack.length - 1];
    let child: XNode | null = null;
    if (parent && stack.length <= MAX_DEPTH) {
      child = parent.children.get(m[0]) ?? null;
      if (!child && nodes < MAX_NODES) {
        child = node(m[0]);
        parent.children.set(m[0], child);
        nodes++;
      }
      if (child) {
        child.count++;
        // Attribute names are sampled from the first occurrences; repeats rarely add new ones.
        if (child.count <= 16 && child.attrs.size < 12) for (const a of tag.matchAll(/\s([^\s=/>]+)\s*=/g)) child.attrs.add(a[1]!);
      }
    }
    if (!tag.endsWith("/")) stack.push(child);
  }
  return { root, elements };
}

/** Skeleton lines, depth first, without recursion. */
function skeletonLines(root: XNode): string[] {
  const out: string[] = [];
  const todo: [XNode, number][] = [...root.children.values()].toReversed().map((n) => [n, 0]);
  while (todo.length > 0) {
    const [n, d] = todo.pop()!;
    const attrs = n.attrs.size > 0 ? " " + [...n.attrs].join(" ") : "";
    const count = n.count > 1 ? ` ×${fmtInt(n.count)}` : "";
    const sample = n.sample && n.children.size === 0 ? ` "${n.sample}"` : "";
    out.push(clipEnd(`${"  ".repeat(d)}<${oneLine(n.name)}${oneLine(attrs)}>${count}${sample}`, 200));
    for (const c of [...n.children.values()].toReversed()) todo.push([c, d + 1]);
  }
  return out;
}

/** Excerpt of an XML document. */
export function xmlExcerpt(text: string, cap: number): string {
  const { root } = xmlSkeleton(text);
  const skel = skeletonLines(root);
  const win = edgeWindows(text, cap);
  const blocks: Block[] = [];
  if (skel.length > 0) {
    blocks.push({ type: "fixed", text: "element skeleton (attribute names, ×count, sample text):" });
    blocks.push({ type: "section", role: "anchors", units: skel });
    blocks.push({ type: "note", render: (s) => (s.anchors < skel.length ? `  … ${fmtInt(skel.length - s.anchors)} more elements` : "") });
    blocks.push({ type: "fixed", text: "document start:" });
  }
  blocks.push({ type: "section", role: "head", units: win.head });
  blocks.push({
    type: "note",
    render: (s) => {
      const n = win.totalLines - s.head - s.tail;
      return n > 0 ? `… ${fmtInt(n)} lines omitted (lines ${s.head}–${win.totalLines - s.tail - 1}) …` : "…";
    },
  });
  blocks.push({ type: "section", role: "tail", units: win.tail });
  return fitPlan(blocks, cap, text.length).text;
}
