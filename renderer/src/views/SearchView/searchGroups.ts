/** Search hits grouped by blob or by session, and query terms marked in a snippet. Pure, so it is tested directly. */
import type { GlobalHit } from "../../../../core/inspector/api/contract";

export interface HitGroup {
  key: string;
  /** The first hit's blob (by blob) or the session id (by session). */
  title: string;
  hits: GlobalHit[];
  /** The best score in the group: groups are ordered by it. */
  best: number;
}

export type Grouping = "blob" | "session" | "none";

export function groupHits(hits: GlobalHit[], by: Grouping): HitGroup[] {
  if (by === "none") return hits.map((h, i) => ({ key: `${h.blobId}:${h.startLine}:${i}`, title: h.blobId, hits: [h], best: h.score }));
  const groups = new Map<string, HitGroup>();
  for (const h of hits) {
    const key = by === "blob" ? h.blobId : h.sessionId;
    const g = groups.get(key) ?? { key, title: key, hits: [], best: Number.NEGATIVE_INFINITY };
    g.hits.push(h);
    g.best = Math.max(g.best, h.score);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.best - a.best);
}

/** The words of a query as lowercase prefixes to find in text (a crude stem: `failures` finds `failure`). */
export function queryWords(q: string): string[] {
  const words = q.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [];
  return [...new Set(words.map((w) => (w.length > 4 && w.endsWith("s") ? w.slice(0, -1) : w)))];
}

/** The snippet cut into plain and marked pieces, marking each occurrence of a query word. */
export function markPieces(text: string, words: string[]): { text: string; mark: boolean }[] {
  if (words.length === 0) return [{ text, mark: false }];
  const escaped = words.toSorted((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(${escaped.join("|")})[\\p{L}\\p{N}_]*`, "giu");
  const out: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), mark: false });
    out.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
