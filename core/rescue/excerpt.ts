/**
 * Excerpt dispatcher: picks the structure-aware builder for a kind, falls back to the plain
 * head/tail builder on any failure, and enforces the exact character cap last of all.
 */
import type { Kind } from "../types";
import { safeEnd } from "./format";
import { codeExcerpt } from "./excerpt/code";
import { csvExcerpt } from "./excerpt/csv";
import { htmlExcerpt } from "./excerpt/html";
import { jsonExcerpt } from "./excerpt/json";
import { markdownExcerpt } from "./excerpt/markdown";
import { ndjsonExcerpt } from "./excerpt/ndjson";
import { plainExcerpt } from "./excerpt/plain";
import { xmlExcerpt } from "./excerpt/xml";
import type { ContainerScan } from "./json/scan";

/** What the model sees of a stored result; `truncated` when it is not the whole input. */
export interface Excerpt {
  text: string;
  truncated: boolean;
}

/** Smallest cap honoured; smaller requests are raised to it. */
export const MIN_EXCERPT_CHARS = 200;

const BUILDERS: Record<Kind, (text: string, cap: number, scanned?: ContainerScan) => string> = {
  json: jsonExcerpt,
  ndjson: ndjsonExcerpt,
  csv: csvExcerpt,
  tsv: csvExcerpt,
  html: htmlExcerpt,
  xml: xmlExcerpt,
  markdown: markdownExcerpt,
  code: codeExcerpt,
  log: (t, cap) => plainExcerpt(t, cap, true),
  text: (t, cap) => plainExcerpt(t, cap, true),
};

/** The cap actually used for a requested `maxChars` (at least 200; a non-number gets the smallest). */
export function effectiveCap(maxChars: number): number {
  if (typeof maxChars !== "number" || Number.isNaN(maxChars)) return MIN_EXCERPT_CHARS;
  if (maxChars === Infinity) return Number.MAX_SAFE_INTEGER;
  return Math.max(MIN_EXCERPT_CHARS, Math.floor(maxChars));
}

/** How the excerpt budget follows the result's size (the `excerpt` config block). */
export interface ExcerptSizing {
  /** Exact cap, whatever the result's size. */
  maxChars: number;
  /** Floor: no result gets a smaller budget (unless the cap is smaller). */
  minChars: number;
  /** Share of the result's length the budget grows by. */
  share: number;
}

/**
 * The excerpt budget for a result of `chars`: a share of its size, at least the floor, never
 * above the cap. A result just over the rescue threshold then costs a small part of itself,
 * and a large one gets the whole cap.
 */
export function excerptBudget(chars: number, sizing: ExcerptSizing): number {
  const grown = Math.max(sizing.minChars, Math.floor(Math.max(0, chars) * sizing.share));
  return Math.min(sizing.maxChars, grown);
}

function capped(text: string, cap: number): string {
  return text.length <= cap ? text : text.slice(0, safeEnd(text, cap));
}

/**
 * Structure-aware excerpt of `text` as `kind`, at most `maxChars` chars (min 200). Never throws.
 * `scanned`: detectKindScanned's scan of this same text, so a JSON document is walked once.
 */
export function buildExcerpt(text: string, kind: Kind, maxChars: number, scanned?: ContainerScan): Excerpt {
  const cap = effectiveCap(maxChars);
  let input: string;
  try {
    input = typeof text === "string" ? text : String(text ?? "");
  } catch {
    input = "";
  }
  // HTML is always rebuilt, even when small: its raw form may carry scripts and styles.
  if (input.length <= cap && kind !== "html") return { text: input, truncated: false };
  const builder = BUILDERS[kind] ?? BUILDERS.text;
  for (const build of [builder, (t: string, c: number) => plainExcerpt(t, c, false)]) {
    try {
      return { text: capped(build(input, cap, input === text ? scanned : undefined), cap), truncated: true };
    } catch {
      // The next builder is the plain one, which accepts any string.
    }
  }
  const marker = "… [excerpt truncated]";
  return { text: capped(input, cap - marker.length - 1) + "\n" + marker, truncated: true };
}
