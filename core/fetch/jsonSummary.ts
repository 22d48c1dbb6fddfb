/**
 * A one-pass, bounded-memory summary of JSON (or NDJSON) text. It walks the text with an
 * explicit stack instead of JSON.parse, so a 50 MB blob costs per-path statistics, not a 50 MB
 * object graph, and deep nesting cannot overflow the call stack. Statistics are exact over
 * everything scanned; only the number of paths and tracked distinct strings is capped.
 * The loop runs once per value of the document, so it keeps its position in a local and takes
 * short cuts that give the same figures: a key is first matched in place against the key the
 * previous record had next, a plain decimal is read digit by digit, and a string value
 * written without escapes is counted in place (StringStats.countRaw), never sliced.
 */
import {
  childOf,
  itemsOf,
  newNode,
  recordBoolean,
  recordClose,
  recordContainer,
  recordNull,
  recordNumber,
  recordString,
  recordStringLength,
  resetNodeBudget,
  type ShapeNode,
} from "./shapeNode";
import { hashRaw } from "./stringStats";

export interface JsonSummary {
  root: ShapeNode;
  /** NDJSON: the number of top-level records. */
  records: number;
  scannedChars: number;
  totalChars: number;
  /** Set when the text is not valid JSON at `at`; statistics cover what came before. */
  error?: { at: number; message: string };
}

/** Deeper levels are counted at their node but not broken down further. */
export const MAX_DEPTH = 16;
/** Text beyond this many chars is not scanned (the summary then says it sampled). */
export const SCAN_BUDGET_CHARS = 64_000_000;

/** An open container; one per depth, reused (a 50 MB array of records opens millions). */
interface Frame {
  node: ShapeNode;
  isObj: boolean;
  count: number;
  /** The index in `node.kids` of the last key read in this object, -1 before the first. */
  kid: number;
}

/** Invalid JSON, found at `at`. */
class ScanError extends SyntaxError {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** Powers of ten a plain decimal of at most 15 digits is divided by: both exact, so the quotient is Number()'s own rounding. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
const MAX_FAST_DIGITS = 15;

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipWs(t: string, i: number): number {
  while (isWs(t.charCodeAt(i))) i++;
  return i;
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/** Index of the closing quote of the string opening at `i`. */
function stringEnd(t: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const k = t.indexOf('"', j);
    if (k === -1) throw new ScanError("unterminated string", i);
    let b = k - 1;
    while (t.charCodeAt(b) === 92) b--;
    if ((k - 1 - b) % 2 === 0) return k;
    j = k + 1;
  }
}

/** The value of a string's raw text; a bad escape is an error at `at` (just past the string). */
function decode(raw: string, at: number): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch (err) {
    throw new ScanError(err instanceof Error ? err.message : String(err), at);
  }
}

/** Set by number(): where the number read ends. */
let numberEnd = 0;

/** The number starting at `a` (a digit or `-`); its end goes to numberEnd. */
function number(t: string, a: number): number {
  let i = a;
  let c = t.charCodeAt(i);
  const neg = c === 45;
  if (neg) c = t.charCodeAt(++i);
  let m = 0;
  let digits = 0;
  for (; c >= 48 && c <= 57; c = t.charCodeAt(++i)) {
    m = m * 10 + (c - 48);
    digits++;
  }
  let frac = 0;
  if (c === 46 && digits > 0) {
    for (c = t.charCodeAt(++i); c >= 48 && c <= 57; c = t.charCodeAt(++i)) {
      m = m * 10 + (c - 48);
      frac++;
    }
  }
  if (digits > 0 && digits + frac <= MAX_FAST_DIGITS && t.charCodeAt(i - 1) !== 46 && !isNumberChar(c)) {
    numberEnd = i;
    const v = frac === 0 ? m : m / POW10[frac]!;
    return neg ? -v : v;
  }
  // Exponents, long mantissas and whatever else Number() makes of the token.
  for (i = a; isNumberChar(t.charCodeAt(i)); i++);
  const n = Number(t.slice(a, i));
  if (Number.isNaN(n)) throw new ScanError("bad number", a);
  numberEnd = i;
  return n;
}

/** Set by readKey(): the node of the key read. */
let keyNode: ShapeNode = newNode();

/**
 * Reads `"key" :` of the object open in `f`, from `i` (whitespace before the key allowed);
 * returns where its value starts and sets keyNode. Records of one array mostly repeat their
 * keys in one order, so the key after the previous one is tried first, in place.
 */
function readKey(t: string, i: number, f: Frame): number {
  i = skipWs(t, i);
  if (t.charCodeAt(i) !== 34) throw new ScanError("expected a key", i);
  const node = f.node;
  const next = f.kid + 1;
  if (next < node.kids.length) {
    const raw = node.rawKeys[next]!;
    // A raw key ends before an unescaped quote, so a quote right after it closes this key too.
    if (t.charCodeAt(i + 1 + raw.length) === 34 && t.startsWith(raw, i + 1)) {
      keyNode = node.kids[next]!;
      f.kid = next;
      return afterColon(t, i + raw.length + 2);
    }
  }
  const k = stringEnd(t, i);
  const raw = t.slice(i + 1, k);
  keyNode = childOf(node, decode(raw, k + 1), raw);
  const at = node.kids.indexOf(keyNode);
  if (at >= 0) f.kid = at;
  return afterColon(t, k + 1);
}

function afterColon(t: string, i: number): number {
  i = skipWs(t, i);
  if (t.charCodeAt(i) !== 58) throw new ScanError("expected :", i);
  return skipWs(t, i + 1);
}

/** Summarises `text`; with `sequence`, top-level values are records of a virtual array (NDJSON). */
export function summarizeJson(text: string, opts: { sequence?: boolean; budgetChars?: number } = {}): JsonSummary {
  const t = text;
  const budget = opts.budgetChars ?? SCAN_BUDGET_CHARS;
  const sequence = opts.sequence === true;
  resetNodeBudget();
  const root = newNode();
  const out: JsonSummary = { root, records: 0, scannedChars: t.length, totalChars: t.length };
  const frames: Frame[] = [];
  let depth = 0;
  let i = 0;
  if (sequence) recordContainer(root, false);
  try {
    i = skipWs(t, 0);
    let target: ShapeNode = sequence ? itemsOf(root) : root;
    let needValue = i < t.length;
    for (;;) {
      if (needValue) {
        if (depth <= 1 && i > budget) {
          out.scannedChars = i;
          if (depth === 1) frames[0]!.count--; // the item not scanned
          break;
        }
        const c = t.charCodeAt(i);
        if (c === 123 || c === 91) {
          const isObj = c === 123;
          recordContainer(target, isObj);
          i++;
          if (depth >= MAX_DEPTH) i = skipContainer(t, i);
          else {
            const f = (frames[depth] ??= { node: target, isObj, count: 0, kid: -1 });
            f.node = target;
            f.isObj = isObj;
            f.count = 0;
            f.kid = -1;
            depth++;
            i = skipWs(t, i);
            if (t.charCodeAt(i) === (isObj ? 125 : 93)) {
              i++;
              recordClose(target, isObj, 0);
              depth--;
            } else {
              if (isObj) {
                i = readKey(t, i, f);
                target = keyNode;
              } else target = itemsOf(target);
              f.count++;
              continue;
            }
          }
        } else if (c === 34) {
          const k = stringEnd(t, i);
          const from = i + 1;
          i = k + 1;
          const h = hashRaw(t, from, k);
          if (h >= 0) {
            const s = recordStringLength(target, k - from);
            if (!s.capped) s.countRaw(t, from, k, h);
          } else recordString(target, decode(t.slice(from, k), i));
        } else if (c === 45 || (c >= 48 && c <= 57)) {
          recordNumber(target, number(t, i));
          i = numberEnd;
        } else if (c === 116 || c === 102 || c === 110) {
          const word = c === 116 ? "true" : c === 102 ? "false" : "null";
          if (!t.startsWith(word, i)) throw new ScanError("unexpected token", i);
          i += word.length;
          if (c === 110) recordNull(target);
          else recordBoolean(target, c === 116);
        } else throw new ScanError(Number.isNaN(c) ? "unexpected end" : "unexpected character", i);
        needValue = false;
        if (depth === 0 && sequence) out.records++;
      }
      i = skipWs(t, i);
      if (depth === 0) {
        if (i >= t.length) break;
        if (!sequence) throw new ScanError("unexpected data after the end", i);
        target = itemsOf(root);
        needValue = true;
        continue;
      }
      const top = frames[depth - 1]!;
      const c = t.charCodeAt(i);
      if (c === 44) {
        i = skipWs(t, i + 1);
        if (top.isObj) {
          i = readKey(t, i, top);
          target = keyNode;
        } else target = itemsOf(top.node);
        top.count++;
        needValue = true;
      } else if (c === (top.isObj ? 125 : 93)) {
        i++;
        recordClose(top.node, top.isObj, top.count);
        depth--;
        if (depth === 0 && sequence) out.records++;
      } else throw new ScanError(Number.isNaN(c) ? "unexpected end" : "expected , or a closing bracket", i);
    }
  } catch (err) {
    const at = err instanceof ScanError ? err.at : i;
    out.error = { at, message: err instanceof Error ? err.message : String(err) };
    out.scannedChars = at;
  }
  // Containers left open by the budget or an error still report what was seen of them.
  while (depth > 0) {
    const f = frames[--depth]!;
    recordClose(f.node, f.isObj, f.count);
  }
  if (sequence) recordClose(root, false, out.records);
  return out;
}

/** Skips a container too deep to break down, from just inside it; returns the index past it. */
function skipContainer(t: string, i: number): number {
  let depth = 1;
  while (depth > 0) {
    const c = t.charCodeAt(i);
    if (Number.isNaN(c)) throw new ScanError("unexpected end", i);
    if (c === 34) {
      const k = stringEnd(t, i);
      decode(t.slice(i + 1, k), k + 1); // a bad escape in there still makes the text invalid
      i = k + 1;
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    i++;
  }
  return i;
}
