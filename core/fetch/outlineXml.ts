/**
 * XML outline: the element tree by path (repeated siblings merged, like JSON arrays), with
 * counts, attribute names and the 0-based line of the first occurrence. A hand scanner
 * rather than a parser: tool output is often cut mid-document and should still outline.
 */
import { lineOfOffset, lineStarts } from "../text/lines";
import { fmtCount } from "./answer";

const MAX_PATHS = 200;
const MAX_DEPTH = 12;

interface PathInfo {
  depth: number;
  name: string;
  count: number;
  firstAt: number;
  attrs: Set<string>;
  parent: string;
}

export function xmlOutline(text: string): string {
  const paths = new Map<string, PathInfo>();
  const stack: string[] = [];
  let elements = 0;
  let maxDepth = 0;
  let dropped = 0;
  let i = text.indexOf("<");
  while (i !== -1 && i < text.length) {
    const next = text[i + 1];
    let end: number;
    if (text.startsWith("<!--", i)) end = after(text, "-->", i);
    else if (text.startsWith("<![CDATA[", i)) end = after(text, "]]>", i);
    else if (next === "?" || next === "!") end = after(text, ">", i);
    else if (next === "/") {
      end = after(text, ">", i);
      const name = /^<\/\s*([^\s>]+)/.exec(text.slice(i, Math.min(end, i + 300)))?.[1];
      // Pop to the matching open tag, tolerating unclosed elements as HTML-ish XML has.
      const at = name ? stack.lastIndexOf(name) : -1;
      if (at >= 0) stack.length = at;
    } else {
      end = tagEnd(text, i);
      const tag = text.slice(i, end);
      const m = /^<([A-Za-z_][\w:.-]*)/.exec(tag);
      if (m) {
        elements++;
        const depth = stack.length;
        maxDepth = Math.max(maxDepth, depth + 1);
        if (depth < MAX_DEPTH) {
          const key = [...stack, m[1]!].join("/");
          let info = paths.get(key);
          if (!info && paths.size < MAX_PATHS) {
            info = { depth, name: m[1]!, count: 0, firstAt: i, attrs: new Set(), parent: stack.join("/") };
            paths.set(key, info);
          }
          if (info) {
            info.count++;
            if (info.attrs.size < 8) for (const a of tag.matchAll(/\s([A-Za-z_][\w:.-]*)\s*=/g)) info.attrs.add(a[1]!);
          } else dropped++;
        }
        if (!tag.endsWith("/>")) stack.push(m[1]!);
      }
    }
    i = text.indexOf("<", end);
  }
  const starts = lineStarts(text);
  // Children listed under their parent, in order of first occurrence.
  const children = new Map<string, PathInfo[]>();
  for (const p of paths.values()) children.set(p.parent, [...(children.get(p.parent) ?? []), p]);
  const lines: string[] = [];
  const visit = (parent: string) => {
    for (const p of children.get(parent) ?? []) {
      const attrs = p.attrs.size ? ` ${[...p.attrs].join(" ")}` : "";
      lines.push(`L${lineOfOffset(starts, p.firstAt)} ${"  ".repeat(p.depth)}<${p.name}${attrs}> ×${fmtCount(p.count)}`);
      visit(parent ? `${parent}/${p.name}` : p.name);
    }
  };
  visit("");
  const more = dropped > 0 ? [`… ${fmtCount(dropped)} more elements on paths not shown`] : [];
  return [
    `XML outline: ${fmtCount(elements)} elements, depth ${maxDepth}, ${fmtCount(paths.size)} distinct paths (lines are first occurrences)`,
    ...lines,
    ...more,
  ].join("\n");
}

function after(text: string, token: string, from: number): number {
  const k = text.indexOf(token, from);
  return k === -1 ? text.length : k + token.length;
}

/** End of a start tag, skipping `>` inside quoted attribute values. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let j = from + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return j + 1;
  }
  return text.length;
}
