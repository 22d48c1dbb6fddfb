/**
 * Per-path statistics for the JSON outline: one node per path (object keys by name, array
 * elements merged into one `[]` node, so an array of records becomes columns). Memory is
 * bounded by capping distinct keys per object and distinct strings tracked per node.
 */

export type JsonType = "object" | "array" | "string" | "number" | "boolean" | "null";

export interface ShapeNode {
  /** Values seen at this path, by type. */
  types: Map<JsonType, number>;
  num: { n: number; ints: number; min: number; max: number; sum: number } | null;
  str: { n: number; minLen: number; maxLen: number; values: Map<string, number>; capped: boolean } | null;
  bool: { t: number; f: number } | null;
  /** Lengths of arrays / key counts of objects seen here. */
  arr: { n: number; min: number; max: number; total: number } | null;
  obj: { n: number; min: number; max: number } | null;
  keys: Map<string, ShapeNode>;
  /** Values of keys beyond MAX_KEYS (map-like objects keyed by ids), merged. */
  other: ShapeNode | null;
  otherKeyNames: Set<string> | null;
  otherKeyOverflow: boolean;
  items: ShapeNode | null;
}

/** Distinct keys broken down per object path; more are merged into one `*` node. */
export const MAX_KEYS = 60;
/** Paths tracked in all; beyond, new keys merge into their parent's `*` node. */
export const MAX_NODES = 3_000;
/** Distinct string values tracked per path (the count is then a lower bound). */
export const MAX_DISTINCT = 500;
/** Strings longer than this are tracked by a hash, never shown as a top value. */
const TRACK_LEN = 120;

let nodesAlive = 0;

export function newNode(): ShapeNode {
  nodesAlive++;
  return {
    types: new Map(),
    num: null,
    str: null,
    bool: null,
    arr: null,
    obj: null,
    keys: new Map(),
    other: null,
    otherKeyNames: null,
    otherKeyOverflow: false,
    items: null,
  };
}

/** Resets the global node budget (called once per summary). */
export function resetNodeBudget(): void {
  nodesAlive = 0;
}

export function recordValue(node: ShapeNode, type: JsonType, value: unknown): void {
  node.types.set(type, (node.types.get(type) ?? 0) + 1);
  if (type === "number") {
    const x = value as number;
    const s = (node.num ??= { n: 0, ints: 0, min: x, max: x, sum: 0 });
    s.n++;
    if (Number.isInteger(x)) s.ints++;
    if (x < s.min) s.min = x;
    if (x > s.max) s.max = x;
    s.sum += x;
  } else if (type === "string") {
    const v = value as string;
    const s = (node.str ??= { n: 0, minLen: v.length, maxLen: v.length, values: new Map(), capped: false });
    s.n++;
    if (v.length < s.minLen) s.minLen = v.length;
    if (v.length > s.maxLen) s.maxLen = v.length;
    const key = v.length <= TRACK_LEN ? v : `\u0000${v.length}:${hash(v)}`;
    const seen = s.values.get(key);
    if (seen !== undefined) s.values.set(key, seen + 1);
    else if (s.values.size < MAX_DISTINCT) s.values.set(key, 1);
    else s.capped = true;
  } else if (type === "boolean") {
    const s = (node.bool ??= { t: 0, f: 0 });
    if (value) s.t++;
    else s.f++;
  }
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

/** The node of `key` under an object node (or the merged `*` node past the caps). */
export function childOf(node: ShapeNode, key: string): ShapeNode {
  const existing = node.keys.get(key);
  if (existing) return existing;
  if (node.keys.size < MAX_KEYS && nodesAlive < MAX_NODES) {
    const n = newNode();
    node.keys.set(key, n);
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

/** FNV-1a, enough to count long strings as distinct without keeping them. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
