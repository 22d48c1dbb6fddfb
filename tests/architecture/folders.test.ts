// The folders of core/ form layers: no two folders import each other, directly or around a loop.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const CORE = join(import.meta.dirname, "..", "..", "core");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return n.endsWith(".ts") && !n.endsWith(".test.ts") ? [p] : [];
  });
}

/** Edges between folders at `depth` (1: core/store, 2: core/inspector/api), each with one example import. */
function folderGraph(files: { file: string; text: string }[], depth: number): Map<string, Map<string, string>> {
  const folderOf = (f: string) => {
    const parts = relative(CORE, f).split("/").slice(0, -1);
    return parts.length ? parts.slice(0, depth).join("/") : ".";
  };
  const edges = new Map<string, Map<string, string>>();
  for (const { file, text } of files) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(
      /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]!;
      const a = folderOf(file);
      const target = resolve(dirname(file), spec);
      // `../store` is the folder's index.ts surface
      const b = folderOf(existsSync(target) && statSync(target).isDirectory() ? join(target, "index.ts") : target + ".ts");
      if (a === b || b.startsWith("..")) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      edges.get(a)!.set(b, `${relative(CORE, file)} → ${spec}`);
    }
  }
  return edges;
}

/** Every loop in the graph, as the list of folders around it with the imports that close it. */
function loops(edges: Map<string, Map<string, string>>): string[] {
  const out: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (v: string) => {
    state.set(v, "open");
    path.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (state.get(w) === "open") {
        const loop = path.slice(path.indexOf(w)).concat(w);
        out.push(loop.map((x, i) => (i + 1 < loop.length ? `${x} (${edges.get(x)!.get(loop[i + 1]!)})` : x)).join(" → "));
      } else if (!state.has(w)) visit(w);
    }
    path.pop();
    state.set(v, "done");
  };
  for (const v of edges.keys()) if (!state.has(v)) visit(v);
  return out;
}

describe("folders", () => {
  const files = sources(CORE).map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it("core's folders import one way (no loop between folders)", () => {
    expect(loops(folderGraph(files, 1))).toEqual([]);
  });

  it("the inspector's api, handlers and web import one way", () => {
    const inspector = [...folderGraph(files, 2)].filter(([a]) => a.startsWith("inspector"));
    expect(loops(new Map(inspector))).toEqual([]);
  });

  it("finds a planted loop (a guard against a check that cannot fail)", () => {
    const planted = [
      { file: join(CORE, "hooks", "a.ts"), text: 'import { x } from "../mcp/b";' },
      { file: join(CORE, "mcp", "b.ts"), text: 'import type { y } from "../hooks/a";' },
    ];
    expect(loops(folderGraph(planted, 1))).toHaveLength(1);
    expect(folderGraph(files, 1).get("engine")?.has("store")).toBe(true);
  });
});
