// The renderer imports the contract (types only); it must stay free of Node, SQLite and the engine.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { requestSchemas } from "./contract";
import { OP_NAMES } from "./operations";

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/g;

function importsOf(file: string): string[] {
  return [...readFileSync(join(import.meta.dirname, file), "utf8").matchAll(IMPORT)].map((m) => m[1]!);
}

describe("the inspector contract", () => {
  it("imports only zod and pure modules, all the way down", () => {
    // Every module the contract reaches, followed through relative imports: each may import
    // only zod and other relative modules, and a module reached by a value import must be the
    // vocabulary (plain constants); the rest are reached with `import type` only.
    const seen = new Set<string>();
    const valueImported = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      for (const m of text.matchAll(/(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g)) {
        const spec = m[3]!;
        if (spec === "zod") continue;
        expect(spec, `${file} imports ${spec}`).toMatch(/^\./);
        const target = join(dirname(file), spec) + ".ts";
        if (!m[2] && !/^import\s+type|^export\s+type/.test(m[0])) valueImported.add(target);
        walk(target);
      }
    };
    walk(join(import.meta.dirname, "contract.ts"));
    expect(seen.size).toBeGreaterThan(4);
    const values = [...valueImported].map((f) => f.slice(f.indexOf("core/")));
    expect(values.toSorted()).toEqual(["core/vocabulary.ts"]);
    expect(importsOf("../../vocabulary.ts")).toEqual([]);
  });

  it("keys its schemas by exactly the zod-free operation list the preload uses", () => {
    expect(Object.keys(requestSchemas).toSorted()).toEqual([...OP_NAMES].toSorted());
  });

  it("names every operation namespace.method, and fills request defaults", () => {
    for (const op of Object.keys(requestSchemas)) expect(op).toMatch(/^[a-z]+\.[a-z]+$/i);
    expect(requestSchemas["blobs.list"].parse({})).toEqual({ offset: 0, limit: 200, sort: { by: "createdAt", dir: "desc" }, filter: {} });
    expect(requestSchemas["endpoint.status"].parse(undefined)).toEqual({});
  });
});
