/**
 * A stored UTF-8 blob as a TextDoc: each lookup finds its checkpoints in the line index and
 * reads (verified) only the bytes between them, so a range of a 50 MB blob reads a few KB.
 */
import type { TextDoc } from "../text/textDoc";
import type { LineIndex } from "./lineIndex";

/** Verified bytes `[start, start + length)` of the blob. */
export type ReadBytes = (start: number, length: number) => Buffer;

/** A TextDoc over a blob's file, through its line index. */
export function blobTextDoc(index: LineIndex, read: ReadBytes): TextDoc {
  // The last window read: a range or grep asks for neighbouring spans in turn.
  let win: { char: number; text: string } | null = null;
  const slice = (from: number, to: number): string => {
    from = Math.max(0, Math.min(from, index.chars));
    to = Math.max(from, Math.min(to, index.chars));
    if (from === to) return "";
    if (win && from >= win.char && to <= win.char + win.text.length) return win.text.slice(from - win.char, to - win.char);
    const a = index.at(index.beforeChar(from));
    const after = index.afterChar(to);
    const b = after === -1 ? { char: index.chars, byte: index.bytes } : index.at(after);
    win = { char: a.char, text: read(a.byte, b.byte - a.byte).toString("utf8") };
    if (win.text.length !== b.char - a.char) throw new Error("the line index does not fit the blob's text");
    return win.text.slice(from - a.char, to - a.char);
  };
  const newlines = (s: string) => {
    let n = 0;
    for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
    return n;
  };
  const lineOffset = (n: number): number => {
    const c = index.at(index.beforeLine(n));
    if (c.line === n && c.lineStart) return c.char;
    // Line n starts before the next checkpoint, at most a step away.
    const next = index.afterChar(c.char + 1);
    const upTo = next === -1 ? index.chars : index.at(next).char;
    const span = slice(c.char, upTo);
    let pos = -1;
    for (let l = c.line; l < n; l++) {
      pos = span.indexOf("\n", pos + 1);
      if (pos === -1) return index.chars;
    }
    return c.char + pos + 1;
  };
  return {
    length: index.chars,
    lines: index.lines,
    lineOffset,
    lineEnd(n) {
      // The next line's start is found through the index; the last line ends the text (or its final newline).
      if (n + 1 < index.lines) return lineOffset(n + 1) - 1;
      return index.chars > 0 && slice(index.chars - 1, index.chars) === "\n" ? index.chars - 1 : index.chars;
    },
    lineAt(offset) {
      const c = index.at(index.beforeChar(offset));
      return c.line + newlines(slice(c.char, offset));
    },
    slice,
  };
}
