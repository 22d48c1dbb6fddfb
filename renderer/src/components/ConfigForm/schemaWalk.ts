/** Turns the config's JSON Schema into form fields. Pure, so the mapping is tested without a DOM. */

export type Field =
  | { kind: "group"; path: string[]; title: string; fields: Field[] }
  | { kind: "number"; path: string[]; title: string; integer: boolean; min?: number; max?: number; exclusiveMin?: boolean; def?: number }
  | { kind: "enum"; path: string[]; title: string; options: string[]; def?: string }
  | { kind: "boolean"; path: string[]; title: string; def?: boolean }
  | { kind: "text"; path: string[]; title: string; def?: string }
  | { kind: "list"; path: string[]; title: string }
  | { kind: "json"; path: string[]; title: string };

type Schema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

export function fieldsOf(schema: Schema, path: string[] = []): Field[] {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.entries(props).map(([key, s]) => fieldOf(s, [...path, key]));
}

function fieldOf(s: Schema, path: string[]): Field {
  const title = path[path.length - 1]!;
  if (s.type === "object" && s.properties) return { kind: "group", path, title, fields: fieldsOf(s, path) };
  if (s.type === "integer" || s.type === "number") {
    const max = typeof s.maximum === "number" && s.maximum < SAFE ? s.maximum : undefined;
    const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
    return {
      kind: "number",
      path,
      title,
      integer: s.type === "integer",
      min,
      max,
      exclusiveMin: typeof s.exclusiveMinimum === "number",
      def: s.default as number | undefined,
    };
  }
  if (Array.isArray(s.enum)) return { kind: "enum", path, title, options: s.enum.map(String), def: s.default as string | undefined };
  if (s.const !== undefined) return { kind: "enum", path, title, options: [String(s.const)], def: String(s.const) };
  if (s.type === "boolean") return { kind: "boolean", path, title, def: s.default as boolean | undefined };
  if (s.type === "string") return { kind: "text", path, title, def: s.default as string | undefined };
  if (s.type === "array" && (s.items as Schema | undefined)?.type === "string") return { kind: "list", path, title };
  return { kind: "json", path, title };
}

export function getAt(obj: unknown, path: string[]): unknown {
  let cur: unknown = obj;
  for (const k of path) cur = cur !== null && typeof cur === "object" ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

/** A copy of `obj` with `value` at `path` (objects along the way are copied, never mutated). */
export function setAt(obj: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [k, ...rest] = path;
  if (k === undefined) return obj;
  const child = obj[k];
  return {
    ...obj,
    [k]:
      rest.length === 0 ? value : setAt(child !== null && typeof child === "object" ? (child as Record<string, unknown>) : {}, rest, value),
  };
}
