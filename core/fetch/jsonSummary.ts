/**
 * A one-pass, bounded-memory summary of JSON (or NDJSON) text. It walks the text with an
 * explicit stack instead of JSON.parse, so a 50 MB blob costs per-path statistics, not a 50 MB
 * object graph, and deep nesting cannot overflow the call stack. Statistics are exact over
 * everything scanned; only the number of paths and tracked distinct strings is capped.
 */
import { childOf, itemsOf, newNode, recordClose, recordValue, resetNodeBudget, type ShapeNode } from "./shapeNode";

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

interface Frame {
  node: ShapeNode;
  isObj: boolean;
  count: number;
}

class Cursor {
  i = 0;
  constructor(readonly t: string) {}
  ws(): void {
    const t = this.t;
    let i = this.i;
    for (let c = t.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = t.charCodeAt(++i));
    this.i = i;
  }
  /** The raw string token starting at the current `"`, returned decoded; the cursor moves past it. */
  string(): string {
    const t = this.t;
    let j = this.i + 1;
    for (;;) {
      const k = t.indexOf('"', j);
      if (k === -1) throw new SyntaxError("unterminated string");
      let b = k - 1;
      while (t.charCodeAt(b) === 92) b--;
      if ((k - 1 - b) % 2 === 0) {
        const raw = t.slice(this.i + 1, k);
        this.i = k + 1;
        return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
      }
      j = k + 1;
    }
  }
  number(): number {
    const t = this.t;
    const a = this.i;
    let i = a;
    for (let c = t.charCodeAt(i); (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69; c = t.charCodeAt(++i));
    const n = Number(t.slice(a, i));
    if (i === a || Number.isNaN(n)) throw new SyntaxError("bad number");
    this.i = i;
    return n;
  }
  literal(word: string): void {
    if (!this.t.startsWith(word, this.i)) throw new SyntaxError("unexpected token");
    this.i += word.length;
  }
}

/** Summarises `text`; with `sequence`, top-level values are records of a virtual array (NDJSON). */
export function summarizeJson(text: string, opts: { sequence?: boolean; budgetChars?: number } = {}): JsonSummary {
  const budget = opts.budgetChars ?? SCAN_BUDGET_CHARS;
  resetNodeBudget();
  const root = newNode();
  const out: JsonSummary = { root, records: 0, scannedChars: text.length, totalChars: text.length };
  const cur = new Cursor(text);
  const stack: Frame[] = [];
  if (opts.sequence) recordValue(root, "array", undefined);
  try {
    cur.ws();
    let target: ShapeNode = opts.sequence ? itemsOf(root) : root;
    let needValue = cur.i < text.length;
    for (;;) {
      if (needValue) {
        if (stack.length <= 1 && cur.i > budget) {
          out.scannedChars = cur.i;
          if (stack.length === 1) stack[0]!.count--; // the item not scanned
          break;
        }
        const c = text.charCodeAt(cur.i);
        if (c === 123 || c === 91) {
          recordValue(target, c === 123 ? "object" : "array", undefined);
          cur.i++;
          if (stack.length >= MAX_DEPTH) {
            skipContainer(cur);
          } else {
            stack.push({ node: target, isObj: c === 123, count: 0 });
            cur.ws();
            const close = text.charCodeAt(cur.i);
            if (close === (c === 123 ? 125 : 93)) {
              cur.i++;
              recordClose(target, c === 123, 0);
              stack.pop();
            } else if (c === 123) {
              target = childOf(target, readKey(cur));
              stack[stack.length - 1]!.count++;
              continue;
            } else {
              target = itemsOf(target);
              stack[stack.length - 1]!.count++;
              continue;
            }
          }
        } else readScalar(cur, target, c);
        needValue = false;
        if (stack.length === 0 && opts.sequence) out.records++;
      }
      cur.ws();
      if (stack.length === 0) {
        if (cur.i >= text.length) break;
        if (!opts.sequence) throw new SyntaxError("unexpected data after the end");
        target = itemsOf(root);
        needValue = true;
        continue;
      }
      const top = stack[stack.length - 1]!;
      const c = text.charCodeAt(cur.i);
      if (c === 44) {
        cur.i++;
        cur.ws();
        target = top.isObj ? childOf(top.node, readKey(cur)) : itemsOf(top.node);
        top.count++;
        needValue = true;
      } else if (c === (top.isObj ? 125 : 93)) {
        cur.i++;
        recordClose(top.node, top.isObj, top.count);
        stack.pop();
        if (stack.length === 0 && opts.sequence) out.records++;
      } else throw new SyntaxError(Number.isNaN(c) ? "unexpected end" : "expected , or a closing bracket");
    }
  } catch (err) {
    out.error = { at: cur.i, message: err instanceof Error ? err.message : String(err) };
    out.scannedChars = cur.i;
  }
  // Containers left open by the budget or an error still report what was seen of them.
  for (let f = stack.pop(); f; f = stack.pop()) recordClose(f.node, f.isObj, f.count);
  if (opts.sequence) recordClose(root, false, out.records);
  return out;
}

function readScalar(cur: Cursor, target: ShapeNode, c: number): void {
  if (c === 34) recordValue(target, "string", cur.string());
  else if (c === 45 || (c >= 48 && c <= 57)) recordValue(target, "number", cur.number());
  else if (c === 116) {
    cur.literal("true");
    recordValue(target, "boolean", true);
  } else if (c === 102) {
    cur.literal("false");
    recordValue(target, "boolean", false);
  } else if (c === 110) {
    cur.literal("null");
    recordValue(target, "null", undefined);
  } else throw new SyntaxError(Number.isNaN(c) ? "unexpected end" : "unexpected character");
}

/** Reads `"key" :` and leaves the cursor on the value. */
function readKey(cur: Cursor): string {
  cur.ws();
  if (cur.t.charCodeAt(cur.i) !== 34) throw new SyntaxError("expected a key");
  const key = cur.string();
  cur.ws();
  if (cur.t.charCodeAt(cur.i) !== 58) throw new SyntaxError("expected :");
  cur.i++;
  cur.ws();
  return key;
}

/** Skips a container too deep to break down, honouring strings; the cursor is just inside it. */
function skipContainer(cur: Cursor): void {
  let depth = 1;
  const t = cur.t;
  while (depth > 0) {
    const c = t.charCodeAt(cur.i);
    if (Number.isNaN(c)) throw new SyntaxError("unexpected end");
    if (c === 34) {
      cur.string();
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    cur.i++;
  }
}
