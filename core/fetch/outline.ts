/** The outline mode: a structural map of a blob, chosen by its kind. */
import type { Kind } from "../types";
import { clip, fmtCount, ok } from "./answer";
import type { FetchAnswer, FetchInput } from "./fetchTypes";
import { codeOutline } from "./outlineCode";
import { jsonOutline } from "./outlineJson";
import { logOutline } from "./outlineLog";
import { htmlOutline, markdownOutline } from "./outlineMarkup";
import { tableOutline } from "./outlineTable";
import { xmlOutline } from "./outlineXml";

/** The model-facing outline text of `content` read as `kind` (not capped; outlineMode caps it). */
export function buildOutline(content: string, kind: Kind): string {
  switch (kind) {
    case "json":
    case "ndjson":
      return jsonOutline(content, kind);
    case "csv":
      return tableOutline(content, ",");
    case "tsv":
      return tableOutline(content, "\t");
    case "html":
      return htmlOutline(content);
    case "xml":
      return xmlOutline(content);
    case "markdown":
      return markdownOutline(content);
    case "code":
      return codeOutline(content);
    case "log":
      return logOutline(content);
    case "text":
      return textOutline(content);
  }
}

/** Plain text: size, paragraphs with their first lines, and the head. */
export function textOutline(text: string): string {
  const paragraphs: { line: number; first: string }[] = [];
  let words = 0;
  let inPara = false;
  let line = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const raw = text.slice(pos, nl === -1 ? text.length : nl).trim();
    if (raw === "") inPara = false;
    else {
      if (!inPara) paragraphs.push({ line, first: raw });
      inPara = true;
      words += raw.split(/\s+/).length;
    }
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  const lines = line + (text.endsWith("\n") || text.length === 0 ? 0 : 1);
  const out = [
    `Text outline: ${fmtCount(lines)} lines, ${fmtCount(paragraphs.length)} paragraphs, ${fmtCount(words)} words, ${fmtCount(text.length)} chars`,
  ];
  const head = text.split("\n", 5).map((l) => clip(l.trim(), 160));
  out.push(`head: ${head.join(" ⏎ ")}`, "paragraphs:");
  for (const p of paragraphs.slice(0, 40)) out.push(`L${p.line} ¶ ${clip(p.first, 100)}`);
  if (paragraphs.length > 40) out.push(`… ${fmtCount(paragraphs.length - 40)} more paragraphs`);
  return out.join("\n");
}

/** `outline`, capped at maxChars on a line boundary. */
export function outlineMode(input: FetchInput): FetchAnswer {
  const text = buildOutline(input.content, input.meta.kind);
  const max = input.limits.maxChars;
  if (text.length <= max) return ok(text, text.length);
  const note = (shown: number) =>
    `\n[outline cut at ${fmtCount(max)} chars, ${fmtCount(shown)} of ${fmtCount(text.length)} shown; use query, grep or range for the rest]`;
  const room = max - note(text.length).length;
  const cut = text.lastIndexOf("\n", room);
  const body = text.slice(0, cut > 0 ? cut : room);
  return ok(body + note(body.length), body.length, true);
}
