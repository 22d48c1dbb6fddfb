/**
 * Kind detection from content. Structure is read from a sample of the first lines; only
 * linear indexOf-style passes (line count, JSON bracket scan, CSV record count) touch the
 * whole input, so a 50 MB result is classified without being parsed or split.
 */
import type { Kind } from "../types";
import { countLines } from "../text/lines";
import { markdownHeadings } from "./excerpt/markdown";
import { fmtInt, oneLine, skipWs } from "./format";
import { detectJson, type Detected } from "./kind/jsonKind";
import { detectDelimited, detectMarkup, detectTextKind, guessLanguage } from "./kind/textKind";

const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_LINES = 200;

/** Records in delimited text, honouring quoted fields that span lines. */
export function countRecords(text: string): number {
  let n = 0;
  let i = 0;
  let nl = text.indexOf("\n");
  let q = text.indexOf('"');
  while (i < text.length) {
    if (nl !== -1 && nl < i) nl = text.indexOf("\n", i);
    if (q !== -1 && q < i) q = text.indexOf('"', i);
    if (q !== -1 && (nl === -1 || q < nl)) {
      // Inside quotes until the closing quote; a doubled quote reopens, which is the same walk.
      const close = text.indexOf('"', q + 1);
      if (close === -1) return n + 1;
      i = close + 1;
      continue;
    }
    n++;
    if (nl === -1) break;
    i = nl + 1;
  }
  return n;
}

function linesOf(sample: string, truncated: boolean): string[] {
  const lines = sample.split("\n", SAMPLE_LINES + 1);
  if (lines.length > SAMPLE_LINES) lines.length = SAMPLE_LINES;
  else if (truncated && lines.length > 1) lines.pop();
  return lines;
}

function htmlShape(text: string, sample: string): string {
  const title = /<title[^>]*>([^<]{1,200})/i.exec(sample)?.[1]?.replace(/\s+/g, " ").trim();
  let headings = 0;
  for (const _ of text.matchAll(/<h[1-6][\s>]/gi)) headings++;
  const h = `${fmtInt(headings)} ${headings === 1 ? "heading" : "headings"}`;
  return title ? `page "${oneLine(title).slice(0, 60)}", ${h}` : `page, ${h}`;
}

function xmlShape(text: string, sample: string): string {
  const root = /<([A-Za-z_][\w.:-]*)/.exec(sample.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![^>]*>/g, ""))?.[1];
  let elements = 0;
  for (let i = text.indexOf("<"); i !== -1; i = text.indexOf("<", i + 1)) {
    const c = text.charCodeAt(i + 1);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) elements++;
  }
  return `${root ? `root <${root.slice(0, 40)}>, ` : ""}${fmtInt(elements)} elements`;
}

function linesShape(n: number): string {
  return `${fmtInt(n)} ${n === 1 ? "line" : "lines"}`;
}

function detect(text: string, utf8?: Uint8Array): Detected {
  const start = skipWs(text);
  if (start >= text.length) return { kind: "text", shape: text.length === 0 ? "empty" : "whitespace only" };
  const json = detectJson(text, utf8);
  if (json) return json;
  const sample = text.slice(start, start + SAMPLE_CHARS);
  const lines = linesOf(sample, start + SAMPLE_CHARS < text.length);
  const textKind = detectTextKind(lines);
  const markup = detectMarkup(sample);
  const fullDoc = /<!doctype|<html[\s>]|<body[\s>]|<\?xml/i.test(sample.slice(0, 4096));
  if (markup && !(textKind === "markdown" && !fullDoc)) {
    return markup === "html" ? { kind: "html", shape: htmlShape(text, sample) } : { kind: "xml", shape: xmlShape(text, sample) };
  }
  const delimited = detectDelimited(lines);
  if (delimited && !(textKind === "log" && delimited.columns <= 3)) {
    const rows = Math.max(0, countRecords(text) - 1);
    return { kind: delimited.kind, shape: `${delimited.columns} columns × ${fmtInt(rows)} rows` };
  }
  const n = countLines(text);
  if (textKind === "markdown") {
    const h = markdownHeadings(text, 0).count;
    return { kind: "markdown", shape: `${fmtInt(h)} ${h === 1 ? "heading" : "headings"}, ${linesShape(n)}` };
  }
  if (textKind === "code") {
    const lang = guessLanguage(sample.slice(0, 16384));
    return { kind: "code", shape: lang ? `${lang}, ${linesShape(n)}` : linesShape(n) };
  }
  return { kind: textKind, shape: linesShape(n) };
}

/** Kind of a tool result and its one-line shape, e.g. `array[2000] of object{id,date,…}`. */
export function detectKind(text: string): { kind: Kind; shape: string } {
  const { kind, shape } = detectKindScanned(text);
  return { kind, shape };
}

/**
 * `detectKind` plus, for a JSON container, the scan it made, which `buildExcerpt` of the same
 * text reuses. `utf8`: the text's UTF-8 bytes when the caller holds them (a faster scan).
 */
export function detectKindScanned(text: string, utf8?: Uint8Array): Detected {
  try {
    return detect(typeof text === "string" ? text : String(text), utf8);
  } catch {
    return { kind: "text", shape: "unreadable" };
  }
}
