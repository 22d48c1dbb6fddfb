/**
 * Per-path statistics for the JSON outline: one node per path (object keys by name, array
 * elements merged into one `[]` node, so an array of records becomes columns). Memory is
 * bounded by capping distinct keys per object and distinct strings tracked per node.
 * The recorders are called once per value of a 50 MB document, so a node counts its types in
 * plain fields (a Map per value cost more than the rest of the scan) and keys its children
 * by their raw text too, which lets the next record's keys match without being decoded.
 */

import { StringStats } from "./stringStats";

export type JsonType = "object" | "array" | "string" | "number" | "boolean" | "null";

/** Distinct keys broken down per object path; more are merged into one `*` node. */
export const MAX_KEYS = 60;
/** Paths tracked in all; beyond, new keys merge into their parent's `*` node. */
export const MAX_NODES = 3_000;

export class ShapeNode {
  nObject = 0;
  nArray = 0;
  nNumber = 0;
  nString = 0;
  nBoolean = 0;
  nNull = 0;
  num: { n: number; ints: number; min: number; max: number; sum: number } | null = null;
  str: StringStats | null = null;
  bool: { t: number; f: number } | null = null;
  /** Lengths of arrays / key counts of objects seen here. */
  arr: { n: number; min: number; max: number; total: number } | null = null;
  obj: { n: number; min: number; max: number } | null = null;
  /** Children by decoded key, in the order first seen. */
  keys = new Map<string, ShapeNode>();
  /** The same children as `keys`, in the same order, with each key's text as first written (escapes kept). */
  readonly kids: ShapeNode[] = [];
  readonly rawKeys: string[] = [];
  /** Values of keys beyond MAX_KEYS (map-like objects keyed by ids), merged. */
  other: ShapeNode | null = null;
  otherKeyNames: Set<string> | null = null;
  otherKeyOverflow = false;
  items: ShapeNode | null = null;

  /** Values seen at this path, by type (only types seen). */
  get types(): Map<JsonType, number> {
    const m = new Map<JsonType, number>();
    const add = (t: JsonType, n: number) => n > 0 && m.set(t, n);
    add("object", this.nObject);
    add("array", this.nArray);
    add("number", this.nNumber);
    add("string", this.nString);
    add("boolean", this.nBoolean);
    add("null", this.nNull);
    return m;
  }
}

let nodesAlive = 0;

export function newNode(): ShapeNode {
  nodesAlive++;
  return new ShapeNode();
}

/** Resets the global node budget (called once per summary). */
export function resetNodeBudget(): void {
  nodesAlive = 0;
}

/** Counts an object or array opened at this node (its size is recorded when it closes). */
export function recordContainer(node: ShapeNode, isObj: boolean): void {
  if (isObj) node.nObject++;
  else node.nArray++;
}

export function recordNumber(node: ShapeNode, x: number): void {
  node.nNumber++;
  let s = node.num;
  if (s === null) s = node.num = { n: 0, ints: 0, min: x, max: x, sum: 0 };
  s.n++;
  if (Number.isInteger(x)) s.ints++;
  if (x < s.min) s.min = x;
  if (x > s.max) s.max = x;
  s.sum += x;
}

/** Counts a string value of `len` chars and returns its path's stats; the caller counts the value itself unless they are capped. */
export function recordStringLength(node: ShapeNode, len: number): StringStats {
  node.nString++;
  const s = (node.str ??= new StringStats(len));
  s.length(len);
  return s;
}

/** Counts a decoded string value. */
export function recordString(node: ShapeNode, v: string): void {
  const s = recordStringLength(node, v.length);
  if (!s.capped) s.count(v);
}

export function recordBoolean(node: ShapeNode, value: boolean): void {
  node.nBoolean++;
  const s = (node.bool ??= { t: 0, f: 0 });
  if (value) s.t++;
  else s.f++;
}

export function recordNull(node: ShapeNode): void {
  node.nNull++;
}

/** Records the size of a container closed at this node. */
export function recordClose(node: ShapeNode, isObj: boolean, count: number): void {
  if (isObj) {
    const s = (node.obj ??= { n: 0, min: count, max: count });
    s.n++;
    if (count < s.min) s.min = count;
    if (count > s.max) s.max = count;
  } else {
    const s = (node.arr ??= { n: 0, min: count, max: count, total: 0 });
    s.n++;
    if (count < s.min) s.min = count;
    if (count > s.max) s.max = count;
    s.total += count;
  }
}

/** The node of `key` (written as `raw`) under an object node, or the merged `*` node past the caps. */
export function childOf(node: ShapeNode, key: string, raw = key): ShapeNode {
  const existing = node.keys.get(key);
  if (existing) return existing;
  if (node.keys.size < MAX_KEYS && nodesAlive < MAX_NODES) {
    const n = newNode();
    node.keys.set(key, n);
    node.kids.push(n);
    node.rawKeys.push(raw);
    return n;
  }
  node.otherKeyNames ??= new Set();
  if (node.otherKeyNames.size < 10_000) node.otherKeyNames.add(key);
  else node.otherKeyOverflow = true;
  return (node.other ??= newNode());
}

/** The merged node of an array's elements. */
export function itemsOf(node: ShapeNode): ShapeNode {
  return (node.items ??= newNode());
}
