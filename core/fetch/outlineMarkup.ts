/** Outlines of marked-up text: Markdown and HTML heading trees, the XML element tree. */
import { lineOfOffset, lineStarts } from "../text/lines";
import { clip, fmtCount, plural } from "./answer";

const MAX_HEADINGS = 200;

/** Markdown headings (ATX and setext) with 0-based lines, skipping fenced code. */
export function markdownOutline(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let fences = 0;
  let tables = 0;
  let headings = 0;
  let prev = "";
  let line = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(pos, end).replace(/\r$/, "");
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence) {
      if (f && f[1]!.startsWith(fence)) fence = null;
    } else if (f) {
      fence = f[1]!;
      fences++;
    } else {
      const atx = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/.exec(raw);
      const setext = prev.trim() !== "" && !/^\s*([-*+]|\d+\.)\s/.test(prev) ? /^ {0,3}(=+|-+)\s*$/.exec(raw) : null;
      if (atx) {
        headings++;
        if (headings <= MAX_HEADINGS) out.push(heading(line, atx[1]!.length, atx[2] ?? ""));
      } else if (setext && line > 0) {
        headings++;
        if (headings <= MAX_HEADINGS) out.push(heading(line - 1, setext[1]![0] === "=" ? 1 : 2, prev.trim()));
      } else if (/^\s*\|.*\|\s*$/.test(raw) && /^\s*\|?\s*:?-{3,}/.test(text.slice(end + 1, end + 40))) tables++;
    }
    prev = raw;
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  const more = headings > MAX_HEADINGS ? [`… ${fmtCount(headings - MAX_HEADINGS)} more headings`] : [];
  const counts = `${plural(headings, "heading")}, ${plural(fences, "code block")}, ${plural(tables, "table")}`;
  return [`Markdown outline: ${fmtCount(line + (text.endsWith("\n") ? 0 : 1))} lines, ${counts}`, ...out, ...more].join("\n");
}

function heading(line: number, level: number, title: string): string {
  return `L${line} ${"  ".repeat(level - 1)}${"#".repeat(level)} ${clip(title.trim(), 120)}`;
}

/** HTML title and h1–h6 tree with 0-based lines, ignoring script and style bodies. */
export function htmlOutline(text: string): string {
  const starts = lineStarts(text);
  const skip = skippedRanges(text);
  const title = /<title\b[^>]*>([^<]{0,300})/i.exec(text);
  const out: string[] = [];
  let headings = 0;
  for (const m of text.matchAll(/<h([1-6])\b[^>]{0,500}>/gi)) {
    if (inRanges(skip, m.index)) continue;
    const level = Number(m[1]);
    const from = m.index + m[0].length;
    const close = text.slice(from, from + 2_000).search(new RegExp(`</h${level}\\s*>`, "i"));
    const inner = text.slice(from, close === -1 ? from + 200 : from + close);
    headings++;
    if (headings <= MAX_HEADINGS)
      out.push(heading(lineOfOffset(starts, m.index), level, decode(inner.replace(/<[^>]{0,500}>/g, " ").replace(/\s+/g, " "))));
  }
  const count = (re: RegExp, noun: string) => plural([...text.matchAll(re)].length, noun);
  const counts = [
    plural(headings, "heading"),
    count(/<a\s[^>]{0,500}href=/gi, "link"),
    count(/<table\b/gi, "table"),
    count(/<form\b/gi, "form"),
    count(/<img\b/gi, "image"),
  ].join(", ");
  const head = `HTML outline: ${fmtCount(starts.length)} lines, ${counts}${title ? `; title: ${clip(decode(title[1]!.trim()), 160)}` : ""}`;
  const more = headings > MAX_HEADINGS ? [`… ${fmtCount(headings - MAX_HEADINGS)} more headings`] : [];
  return [head, ...out, ...more].join("\n");
}

/** Offsets of <script>/<style> bodies and comments, whose text is not content. */
function skippedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(/<(script|style)\b|<!--/gi)) {
    if (ranges.length > 0 && m.index < ranges[ranges.length - 1]![1]) continue;
    const closer = m[1] ? new RegExp(`</${m[1]}\\s*>`, "gi") : /-->/g;
    closer.lastIndex = m.index;
    const c = closer.exec(text);
    ranges.push([m.index, c ? c.index + c[0].length : text.length]);
  }
  return ranges;
}

function inRanges(ranges: readonly [number, number][], at: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid]!;
    if (at < a) hi = mid - 1;
    else if (at >= b) lo = mid + 1;
    else return true;
  }
  return false;
}

function decode(s: string): string {
  return s
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}
