/**
 * Splits a blob into search chunks with exact spans. Chunks are line-aligned (about 40 lines,
 * at most 2,000 chars) so a hit can be read back with `range`; a single line longer than
 * the char budget (minified JSON, base64) is cut into character windows instead, because a
 * 250 k-char line as one chunk would make BM25 length normalisation bury it.
 */
import type { Kind } from "../types";

/** One chunk: lines `startLine..endLine` (inclusive, 0-based) and chars `[startChar, endChar)`. */
export interface Chunk {
  chunk: number;
  startLine: number;
  endLine: number;
  startChar: number;
  endChar: number;
  /** Nearest Markdown heading above the chunk, indexed as context for questions about a section. */
  heading?: string;
}

export const CHUNK_MAX_LINES = 40;
export const CHUNK_MAX_CHARS = 2_000;
/** How far back a window end may move to avoid splitting a word. */
const WINDOW_BACKOFF = 200;
/** A heading starts a new chunk once the current one has this many lines, so sections stay whole. */
const HEADING_BREAK_MIN_LINES = 3;

const ATX_HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

/** Yields chunks in order; chunks with no letter or digit are skipped (nothing to find). */
export function* chunkText(content: string, kind: Kind): Generator<Chunk> {
  const markdown = kind === "markdown";
  let next = 0;
  let curStart = -1;
  let curStartLine = 0;
  let curLines = 0;
  let heading: string | undefined;
  let fence: string | null = null; // inside a fenced code block, `# x` is a comment, not a heading
  let curHeading: string | undefined;
  let pos = 0;
  let line = 0;
  let lastEnd = 0;

  const flush = function* (): Generator<Chunk> {
    if (curStart < 0) return;
    if (hasWord(content, curStart, lastEnd)) {
      yield {
        chunk: next++,
        startLine: curStartLine,
        endLine: curStartLine + curLines - 1,
        startChar: curStart,
        endChar: lastEnd,
        heading: curHeading,
      };
    }
    curStart = -1;
    curLines = 0;
  };

  while (pos < content.length) {
    const nl = content.indexOf("\n", pos);
    const end = nl === -1 ? content.length : nl + 1;
    const len = end - pos;
    if (len > CHUNK_MAX_CHARS) {
      yield* flush();
      for (const [a, b] of windows(content, pos, end)) {
        if (hasWord(content, a, b)) yield { chunk: next++, startLine: line, endLine: line, startChar: a, endChar: b, heading };
      }
    } else {
      let h: RegExpExecArray | null = null;
      if (markdown) {
        const c = content.charCodeAt(pos);
        if (c === 96 || c === 126) {
          const f = /^(`{3,}|~{3,})/.exec(content.slice(pos, Math.min(end, pos + 20)));
          if (f) fence = fence === null ? f[1]! : f[1]!.startsWith(fence) ? null : fence;
        } else if (c === 35 && fence === null) h = ATX_HEADING.exec(content.slice(pos, nl === -1 ? end : nl));
      }
      const full = curStart >= 0 && (curLines >= CHUNK_MAX_LINES || end - curStart > CHUNK_MAX_CHARS);
      if (full || (h && curLines >= HEADING_BREAK_MIN_LINES)) yield* flush();
      if (h) heading = h[2]!.slice(0, 160);
      if (curStart < 0) {
        curStart = pos;
        curStartLine = line;
        curHeading = heading;
      }
      curLines++;
      lastEnd = end;
    }
    pos = end;
    line++;
  }
  yield* flush();
}

/** Character windows over one long line, each ending at a separator when one is near. */
function* windows(content: string, from: number, to: number): Generator<[number, number]> {
  let a = from;
  while (a < to) {
    let b = Math.min(a + CHUNK_MAX_CHARS, to);
    if (b < to) {
      for (let k = b; k > b - WINDOW_BACKOFF; k--) {
        if (!isWordChar(content.charCodeAt(k - 1))) {
          b = k;
          break;
        }
      }
      // Never split a surrogate pair.
      const c = content.charCodeAt(b - 1);
      if (c >= 0xd800 && c <= 0xdbff) b--;
    }
    yield [a, b];
    a = b;
  }
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}

function hasWord(content: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = content.charCodeAt(i);
    if (isWordChar(c) && c !== 95) return true;
  }
  return false;
}
