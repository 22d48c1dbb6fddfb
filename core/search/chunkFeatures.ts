/**
 * What the index derives from a chunk besides its text: extra terms to index with it and
 * whether it is navigation (a table of contents) rather than content.
 */
import { splitCamel } from "./queryTerms";

/** The secondary column: the section heading and the camelCase parts FTS5 would not split. */
export function extraTerms(body: string, heading: string | undefined): string {
  const parts = new Set<string>();
  // Cheap linear pre-check; most chunks have no camelCase at all.
  if (CAMEL_HUMP.test(body)) {
    for (const m of body.matchAll(WORD)) {
      if (!CAMEL_HUMP.test(m[0])) continue;
      for (const p of splitCamel(m[0])) parts.add(p.toLowerCase());
      if (parts.size > 400) break;
    }
  }
  return (heading ?? "") + "\n" + [...parts].join(" ");
}

const CAMEL_HUMP = /\p{Ll}\p{Lu}/u;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A table of contents or link list repeats every section title in a few short lines, so BM25's
 * length normalisation ranks it above the section that answers the question. It still
 * matches, just lower.
 */
export function isNavigation(body: string): boolean {
  const lines = body.split("\n").filter((l) => l.trim() !== "");
  if (lines.length < 4) return false;
  const links = lines.filter((l) =>
    /^\s*(?:[-*+]|\d+\.)?\s*\[[^\]]{1,200}\]\([^)\s]{0,300}\)\s*$|^\s*<li>\s*<a\s[^>]{0,300}>[^<]{0,200}<\/a>\s*(?:<\/li>)?\s*$/i.test(l),
  );
  return links.length >= lines.length * 0.6;
}

/** Extra candidates a search fetches so that link-list chunks, weighed down, do not leave it short. */
export const NAV_OVERFETCH = 8;

/** A chunk's score factor: a link list (a table of contents) ranks below the text it points to. */
export function navigationWeight(body: string): number {
  return isNavigation(body) ? 0.5 : 1;
}
