/**
 * A text read by offsets, whole in memory or a stored blob read a window at a time: what range
 * and grep need to answer from the bytes they return instead of the whole blob. Offsets are
 * chars (UTF-16 code units) and lines follow core/text/lines.ts.
 */
import { countLines } from "./lines";

export interface TextDoc {
  /** Length in chars. */
  readonly length: number;
  /** Lines, under the shared convention (a trailing newline starts no line). */
  readonly lines: number;
  /** Char offset where line `n` starts (`n` < lines). */
  lineOffset(n: number): number;
  /** Char offset of the end of line `n` (its "\n", or the end of the text). */
  lineEnd(n: number): number;
  /** The line holding char offset `offset`. */
  lineAt(offset: number): number;
  /** Chars `[from, to)`, clamped to the text. */
  slice(from: number, to: number): string;
}

/** A TextDoc over a string in memory. */
export function stringDoc(text: string): TextDoc {
  let lines: number | undefined;
  return {
    length: text.length,
    get lines() {
      return (lines ??= countLines(text));
    },
    lineOffset(n) {
      let pos = 0;
      for (let l = 0; l < n; l++) {
        const nl = text.indexOf("\n", pos);
        if (nl === -1 || nl + 1 >= text.length) return text.length;
        pos = nl + 1;
      }
      return pos;
    },
    lineEnd(n) {
      const nl = text.indexOf("\n", this.lineOffset(n));
      return nl === -1 ? text.length : nl;
    },
    lineAt(offset) {
      let n = 0;
      let i = text.indexOf("\n");
      while (i !== -1 && i < offset) {
        n++;
        i = text.indexOf("\n", i + 1);
      }
      return n;
    },
    slice: (from, to) => text.slice(from, to),
  };
}
