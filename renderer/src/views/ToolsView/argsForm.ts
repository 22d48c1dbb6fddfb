/** A tool's input schema as form fields, and the fields back as arguments. Pure, so it is tested directly. */

export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: string[];
  /** The schema's default, as the field's text. */
  initial: string;
}

type Schema = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The top-level properties of an object schema, each as the field that edits it. */
export function fieldsOf(schema: Schema): Field[] {
  const props = (schema.properties && typeof schema.properties === "object" ? schema.properties : {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, p]) => {
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type;
    const kind: FieldKind = Array.isArray(p.enum)
      ? "enum"
      : type === "string" || type === "number" || type === "integer" || type === "boolean"
        ? type
        : "json";
    const initial = p.default === undefined ? "" : kind === "json" ? JSON.stringify(p.default, null, 2) : String(p.default);
    return {
      name,
      kind,
      required: required.has(name),
      description: str(p.description),
      options: Array.isArray(p.enum) ? p.enum.map(String) : [],
      initial,
    };
  });
}

/** The arguments the fields say, or the first field that does not parse. Empty optional fields are left out. */
export function argsOf(
  fields: Field[],
  values: Record<string, string>,
): { ok: true; args: Record<string, unknown> } | { ok: false; field: string; message: string } {
  const args: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? f.initial;
    if (raw.trim() === "" && f.kind !== "string") {
      if (f.required) return { ok: false, field: f.name, message: `${f.name} is required.` };
      continue;
    }
    if (raw === "" && !f.required) continue;
    if (f.kind === "number" || f.kind === "integer") {
      const n = Number(raw);
      if (!Number.isFinite(n) || (f.kind === "integer" && !Number.isInteger(n)))
        return { ok: false, field: f.name, message: `${f.name} must be ${f.kind === "integer" ? "a whole number" : "a number"}.` };
      args[f.name] = n;
    } else if (f.kind === "boolean") args[f.name] = raw === "true";
    else if (f.kind === "json") {
      try {
        args[f.name] = JSON.parse(raw);
      } catch {
        return { ok: false, field: f.name, message: `${f.name} is not valid JSON.` };
      }
    } else args[f.name] = raw;
  }
  return { ok: true, args };
}
