/** CSV / TSV excerpt: the header row, the first rows and the last rows. */
import { clipEnd } from "../format";
import { linesExcerpt } from "./plain";

/** Excerpt of delimited text; very wide rows are clipped so several rows stay visible. */
export function csvExcerpt(text: string, cap: number): string {
  return linesExcerpt(text, cap, { anchors: false, headMax: 6, tailMax: 3, unit: (l) => clipEnd(l, 600), noun: "rows" });
}
