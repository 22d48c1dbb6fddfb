/**
 * Readable text of an HTML document: title, headings (with their 0-based source lines) and
 * text lines. The contents of script, style, template, noscript and iframe elements, all
 * comments, CDATA sections and attributes are skipped, so no script or style text can reach
 * a preview. A single indexOf-driven pass; an unclosed raw element swallows the rest.
 */

export interface HtmlHeading {
  level: number;
  text: string;
  line: number;
}

export interface HtmlText {
  title: string;
  headings: HtmlHeading[];
  lines: string[];
}

const RAW = new Set(["script", "style", "template", "noscript", "iframe", "xmp", "plaintext", "textarea"]);
const BLOCK = new Set([
  "p",
  "div",
  "br",
  "li",
  "ul",
  "ol",
  "tr",
  "td",
  "th",
  "table",
  "section",
  "article",
  "header",
  "footer",
  "nav",
  "main",
  "aside",
  "pre",
  "blockquote",
  "hr",
  "dt",
  "dd",
  "dl",
  "figcaption",
  "figure",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "title",
  "head",
  "body",
  "html",
  "caption",
  "summary",
  "details",
]);
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
};
const MAX_HEADINGS = 300;

function decode(s: string): string {
  if (s.indexOf("&") === -1) return s;
  return s.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (m, body: string) => {
    if (body[0] !== "#") return ENTITIES[body.toLowerCase()] ?? m;
    const cp = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
  });
}

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;
}

/** Index of the `>` closing the tag whose name ends at `i`, skipping quoted attribute values. */
function tagEnd(text: string, i: number): number {
  let prev = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 62) return j;
    if ((c === 34 || c === 39) && prev === 61) {
      const q = text.indexOf(text[j]!, j + 1);
      if (q === -1) return text.length;
      j = q;
      prev = c;
      continue;
    }
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) prev = c;
  }
  return text.length;
}

/** Whether `text` at `at` spells the lowercase ASCII `name`, in any case. */
function sameName(text: string, at: number, name: string): boolean {
  for (let j = 0; j < name.length; j++) {
    if ((text.charCodeAt(at + j) | 0x20) !== name.charCodeAt(j)) return false;
  }
  return true;
}

/** Index just past the end tag `</name>` at or after `from` (ASCII case-insensitive). */
function skipRaw(text: string, from: number, name: string): number {
  let k = text.indexOf("</", from);
  while (k !== -1) {
    if (sameName(text, k + 2, name) && !isNameChar(text.charCodeAt(k + 2 + name.length))) {
      const gt = text.indexOf(">", k);
      return gt === -1 ? text.length : gt + 1;
    }
    k = text.indexOf("</", k + 2);
  }
  return text.length;
}

/** Extract the readable parts of `text`. */
export function extractHtml(text: string): HtmlText {
  const lines: string[] = [];
  const headings: HtmlHeading[] = [];
  let title = "";
  let inTitle = false;
  let titleSeen = false;
  let heading = 0; // level of the heading being read, 0 when none
  let buf = "";
  let line = 0;
  let counted = 0;
  const lineAt = (pos: number): number => {
    for (let k = text.indexOf("\n", counted); k !== -1 && k < pos; k = text.indexOf("\n", k + 1)) line++;
    counted = Math.max(counted, pos);
    return line;
  };
  let headingLine = 0;
  const flush = (): void => {
    if (buf.length === 0) return;
    const t = buf.replace(/\s+/g, " ").trim();
    buf = "";
    if (t.length === 0) return;
    if (heading > 0) {
      if (headings.length < MAX_HEADINGS) headings.push({ level: heading, text: t, line: headingLine });
      lines.push("#".repeat(heading) + " " + t);
    } else lines.push(t);
  };
  const addText = (s: string): void => {
    if (s.length === 0) return;
    if (inTitle) title += decode(s);
    else buf += decode(s);
    if (buf.length > 2000) flush();
  };

  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf("<", i);
    if (lt === -1) {
      addText(text.slice(i));
      break;
    }
    addText(text.slice(i, lt));
    if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt + 4);
      i = end === -1 ? text.length : end + 3;
      continue;
    }
    const next = text.charCodeAt(lt + 1);
    if (next === 33 || next === 63) {
      const end = text.startsWith("<![CDATA[", lt) ? text.indexOf("]]>", lt) : text.indexOf(">", lt);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    const closing = next === 47;
    const ns = lt + (closing ? 2 : 1);
    let ne = ns;
    while (ne < text.length && isNameChar(text.charCodeAt(ne))) ne++;
    if (ne === ns) {
      addText("<");
      i = lt + 1;
      continue;
    }
    const name = text.slice(ns, ne).toLowerCase();
    const gt = tagEnd(text, ne);
    i = gt + 1;
    if (!closing && RAW.has(name)) {
      i = skipRaw(text, i, name);
      continue;
    }
    // Only the first <title> names the page; later ones (inline SVG) are ordinary text.
    if (name === "title" && !closing && !titleSeen) {
      titleSeen = inTitle = true;
      continue;
    }
    if (name === "title" && inTitle) {
      inTitle = false;
      continue;
    }
    if (BLOCK.has(name)) flush();
    if (name.length === 2 && name.charCodeAt(0) === 104 && name.charCodeAt(1) >= 49 && name.charCodeAt(1) <= 54) {
      heading = closing ? 0 : Number(name[1]);
      if (!closing) headingLine = lineAt(lt);
    }
  }
  inTitle = false;
  flush();
  return { title: title.replace(/\s+/g, " ").trim(), headings, lines };
}
