// Each core folder with users outside it declares its surface in index.ts: the modules, and the
// names of each, that code outside the folder may import. Outside code imports the listed module
// itself (a barrel import would make the CLI bundle initialise every module it names, undoing the
// lazy loading startup depends on), so this test holds every cross-folder import, static or
// dynamic, to that list. The inspector's API is its own surface (contract.ts, operations.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const CORE = join(ROOT, "core");

interface Source {
  file: string;
  text: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n) ? [p] : [];
  });
}

/** The folder whose surface a core module belongs to (null for core's root modules and the inspector's API). */
function surfaceOf(module: string): string | null {
  const rel = relative(CORE, module).split("/");
  if (rel.length < 2 || rel[0] === "..") return null;
  if (rel[0] === "inspector") return rel.length >= 3 && rel[1] !== "api" ? join(CORE, "inspector", rel[1]!) : null;
  return join(CORE, rel[0]!);
}

const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** module path (no extension) → the names its folder's index.ts lists from it. */
function declared(surface: string, read: (p: string) => string | null): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const text = read(join(surface, "index.ts"));
  if (text === null) return out;
  for (const m of stripComments(text).matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["'](\.[^"']+)["']/gm)) {
    const module = resolve(surface, m[2]!);
    const names = out.get(module) ?? out.set(module, new Set()).get(module)!;
    for (const n of m[1]!.split(","))
      if (n.trim())
        names.add(
          n
            .trim()
            .replace(/^type\s+/, "")
            .split(/\s+as\s+/)
            .pop()!
            .trim(),
        );
  }
  // `export type * from`: a pure-type module listed whole (the read model's row types).
  for (const m of stripComments(text).matchAll(/^export\s+(?:type\s+)?\*\s+from\s+["'](\.[^"']+)["']/gm))
    out.set(resolve(surface, m[1]!), new Set(["*"]));
  return out;
}

function breaches(files: Source[], read: (p: string) => string | null): string[] {
  const surfaces = new Map<string, Map<string, Set<string>>>();
  const out: string[] = [];
  for (const { file, text } of files) {
    const code = stripComments(text);
    const imports = [
      ...[...code.matchAll(/^(?:import|export)\s+(?:type\s+)?([^'";]*?)\s+from\s+["'](\.[^"']+)["']/gm)].map((m) => ({
        clause: m[1]!,
        spec: m[2]!,
      })),
      ...[...code.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => ({ clause: null, spec: m[1]! })),
    ];
    for (const { clause, spec } of imports) {
      const module = resolve(dirname(file), spec);
      const surface = surfaceOf(module + ".ts");
      if (!surface || file.startsWith(surface + "/")) continue;
      const where = `${relative(ROOT, file)} → ${spec}`;
      if (module === join(surface, "index")) {
        out.push(`${where}: import the module itself, not the barrel`);
        continue;
      }
      const list = surfaces.get(surface) ?? surfaces.set(surface, declared(surface, read)).get(surface)!;
      const names = list.get(module);
      if (!names) {
        out.push(`${where}: not in ${relative(ROOT, surface)}/index.ts`);
        continue;
      }
      if (clause === null) continue; // a lazy import: the module is listed; its use is typed
      if (names.has("*")) continue;
      if (!clause.trim().startsWith("{")) {
        out.push(`${where}: name what you import (${clause.trim()})`);
        continue;
      }
      for (const n of clause.replace(/[{}]/g, "").split(",")) {
        const name = n
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name && !names.has(name)) out.push(`${where}: ${name} is not in ${relative(ROOT, surface)}/index.ts`);
      }
    }
  }
  return out;
}

const readOrNull = (p: string) => (existsSync(p) ? readFileSync(p, "utf8") : null);

describe("folder surfaces", () => {
  const product = ["core", "electron"].flatMap((d) => sources(join(ROOT, d))).map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it("code outside a folder imports only what the folder's index.ts lists", () => {
    expect(breaches(product, readOrNull)).toEqual([]);
  });

  it("every index.ts lists only modules and names that exist (typecheck) and that outside code uses", () => {
    const used = new Set<string>();
    const probe = (p: string) => readOrNull(p);
    for (const s of product) {
      for (const m of stripComments(s.text).matchAll(/(?:from\s+|import\(\s*)["'](\.[^"']+)["']/g))
        used.add(resolve(dirname(s.file), m[1]!));
    }
    const unused: string[] = [];
    for (const idx of product.filter((s) => s.file.endsWith("/index.ts"))) {
      for (const module of declared(dirname(idx.file), probe).keys()) if (!used.has(module)) unused.push(relative(ROOT, module));
    }
    expect(unused).toEqual([]);
  });

  it("catches a deep import, an unlisted name and a barrel import (a guard against a check that cannot fail)", () => {
    const surface = join(CORE, "store", "index.ts");
    const read = (p: string) => (p === surface ? 'export { BlobStore } from "./blobStore";\n' : null);
    const planted = (text: string) => breaches([{ file: join(CORE, "mcp", "x.ts"), text }], read);
    expect(planted('import { BlobStore } from "../store/blobStore";')).toEqual([]);
    expect(planted('import { openStoreParts } from "../store/blobStore";')).toHaveLength(1);
    expect(planted('const m = await import("../store/ledger");')).toHaveLength(1);
    expect(planted('import { BlobStore } from "../store/index";')).toHaveLength(1);
  });
});
