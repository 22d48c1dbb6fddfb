/**
 * Pretty-prints a JSON value straight from its text span, pruned for a preview: long strings
 * are clipped, long containers show their first and last entries with a count of the rest,
 * and nesting stops at a fixed depth. Working from spans (not JSON.parse) keeps the cost
 * proportional to what is shown and tolerates invalid or truncated JSON.
 */
import { fmtInt } from "../format";
import { keyText, lastEntries, scanContainer, skipString, type ContainerScan } from "./scan";

export interface RenderOptions {
  /** Containers nested deeper than this render as `{…}` / `[…]`. */
  maxDepth: number;
  /** Array entries shown at the start and end of a long nested array. */
  arrayHead: number;
  arrayTail: number;
  /** Object keys shown at the start and end of a large nested object. */
  objectHead: number;
  objectTail: number;
  /** Longest string literal shown, in chars. */
  maxString: number;
  /** Spans up to this many chars render on one line. */
  compactBelow: number;
}

export const DEFAULT_RENDER: RenderOptions = {
  maxDepth: 4,
  arrayHead: 3,
  arrayTail: 1,
  objectHead: 24,
  objectTail: 2,
  maxString: 120,
  compactBelow: 100,
};

/** A string literal clipped to `max` chars, saying how much was cut. */
export function renderString(text: string, start: number, end: number, max: number): string {
  const len = end - start;
  if (len <= max) return text.slice(start, end);
  let cut = start + max - 1;
  // Avoid ending inside an escape sequence or a surrogate pair.
  const esc = text.lastIndexOf("\\", cut);
  if (esc > cut - 6 && esc > start) cut = esc;
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${text.slice(start, cut)}…" (+${fmtInt(end - cut)} chars)`;
}

/** One-line form of a small span: whitespace outside strings dropped, `, ` and `: ` spaced. */
function compact(text: string, start: number, end: number): string {
  let out = "";
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const after = skipString(text, i);
      const stop = after === -1 || after > end ? end : after;
      out += text.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
      continue;
    }
    out += text[i];
    if (c === 44 || c === 58) out += " ";
    i++;
  }
  return out;
}

/** Spans above this size, with a count known from the parent's pass, are not rescanned. */
const RESCAN_BELOW = 64 * 1024;

/**
 * First and last entries of the container [start, end). When its entry count is already
 * known and it is large, read only its first entries forwards and its last ones backwards.
 */
export function entriesOf(text: string, start: number, end: number, nHead: number, nTail: number, knownCount = -1): ContainerScan {
  const close = text.charCodeAt(end - 1);
  const closed = close === (text.charCodeAt(start) === 123 ? 125 : 93);
  if (knownCount < 0 || end - start < RESCAN_BELOW || !closed) return scanContainer(text, start, nHead, nTail, end);
  const head = scanContainer(text, start, nHead, 0, end, nHead);
  const tailN = Math.max(0, Math.min(nTail, knownCount - head.first.length));
  const last = tailN > 0 ? lastEntries(text, start, end, tailN, knownCount) : [];
  return { type: head.type, start, end, closed: true, count: knownCount, first: head.first, last };
}

/** Render the value spanning [start, end) at the given nesting depth and indentation. */
export function renderValue(
  text: string,
  start: number,
  end: number,
  indent: string,
  depth: number,
  opt: RenderOptions = DEFAULT_RENDER,
  knownCount = -1,
): string {
  if (start >= end) return "";
  const c = text.charCodeAt(start);
  if (c === 34) return renderString(text, start, end, opt.maxString);
  if (c !== 123 && c !== 91) {
    const raw = text.slice(start, Math.min(end, start + 64));
    return end - start > 64 ? raw + "…" : raw;
  }
  const isObj = c === 123;
  if (depth > opt.maxDepth) {
    if (end - start > 4096) return isObj ? "{…}" : "[…]";
    const n = scanContainer(text, start, 0, 0, end).count;
    return isObj ? `{… ${fmtInt(n)} keys}` : `[… ${fmtInt(n)} items]`;
  }
  if (end - start <= opt.compactBelow) return compact(text, start, end);
  const nHead = isObj ? opt.objectHead : opt.arrayHead;
  const nTail = isObj ? opt.objectTail : opt.arrayTail;
  const scan = entriesOf(text, start, end, nHead, nTail, knownCount);
  if (scan.count === 0) return isObj ? "{}" : "[]";
  const inner = indent + "  ";
  const lines: string[] = [isObj ? "{" : "["];
  const entries = [...scan.first, ...scan.last];
  const omitted = scan.count - entries.length;
  entries.forEach((e, k) => {
    if (k === scan.first.length && omitted > 0) {
      lines.push(`${inner}${gapText(isObj, omitted, scan.first.length, scan.count - scan.last.length - 1)}`);
    }
    const val = renderValue(text, e.valStart, e.valEnd, inner, depth + 1, opt, e.count);
    const key = isObj ? renderString(text, e.keyStart, e.keyEnd, 80) + ": " : "";
    const comma = e.index < scan.count - 1 ? "," : "";
    lines.push(inner + key + val + comma);
  });
  if (!scan.closed) lines.push(`${inner}… (unterminated)`);
  lines.push(indent + (isObj ? "}" : "]"));
  return lines.join("\n");
}

/** The line standing for omitted entries, e.g. `… 1,995 more items (indexes 3–1,997) …`. */
export function gapText(isObj: boolean, omitted: number, from: number, to: number): string {
  if (isObj) return `… ${fmtInt(omitted)} more ${omitted === 1 ? "key" : "keys"} …`;
  const range = omitted === 1 ? `index ${from}` : `indexes ${from}–${to}`;
  return `… ${fmtInt(omitted)} more ${omitted === 1 ? "item" : "items"} (${range}) …`;
}

/** Up to `n` keys of the object opening at `start`, unquoted, for shapes and summaries. */
export function objectKeys(text: string, start: number, n: number, limit = text.length): { keys: string[]; count: number } {
  const scan = scanContainer(text, start, n, 0, limit);
  return { keys: scan.first.map((e) => keyText(text, e)), count: scan.count };
}
