// The three zones import one way: core knows neither Electron nor React; the renderer imports
// only types from core and nothing from Node or Electron; only electron/ imports "electron".
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
  const out: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === "node_modules" || name === "dist" || name === "out") continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx|mts|cts)$/.test(name)) out.push(p);
  }
  return out;
}

interface Imp { file: string; spec: string; typeOnly: boolean }
function importsOf(file: string): Imp[] {
  const text = readFileSync(file, "utf8");
  const out: Imp[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4] ?? m[5];
    if (spec) out.push({ file: relative(ROOT, file), spec, typeOnly: Boolean(m[2]) });
  }
  return out;
}

const NODE_BUILTINS = /^(node:|fs$|path$|os$|child_process$|crypto$|http$|https$|net$|worker_threads$|stream$)/;

describe("zones", () => {
  it("core/ imports neither electron nor react, nor anything from renderer/ or electron/", () => {
    const bad = sources(join(ROOT, "core"))
      .flatMap(importsOf)
      .filter((i) => /^(electron|react|react-dom)(\/|$)/.test(i.spec) || /(^|\/)(renderer|electron)\//.test(i.spec));
    expect(bad).toEqual([]);
  });

  it("renderer/ imports only types from core/ (values only from the vocabulary), and nothing from Node, Electron or native modules", () => {
    const bad = sources(join(ROOT, "renderer"))
      .flatMap(importsOf)
      .filter(
        (i) =>
          NODE_BUILTINS.test(i.spec) ||
          /^(electron|better-sqlite3|re2)(\/|$)/.test(i.spec) ||
          (/(^|\/)core\//.test(i.spec) && !i.typeOnly && !/(^|\/)core\/vocabulary$/.test(i.spec)) ||
          /(^|\/)electron\//.test(i.spec),
      );
    expect(bad).toEqual([]);
  });

  it("only electron/ imports the electron module", () => {
    const dirs = ["core", "renderer", "tests", "bin", "build", "bench"];
    const bad = dirs
      .flatMap((d) => sources(join(ROOT, d)))
      .flatMap(importsOf)
      .filter((i) => /^electron(\/|$)/.test(i.spec));
    expect(bad).toEqual([]);
  });

  it("the walker sees the sources (a guard against a test that cannot fail)", () => {
    expect(sources(join(ROOT, "core")).length).toBeGreaterThan(10);
    expect(importsOf(join(ROOT, "core", "engine", "engine.ts")).some((i) => i.spec === "../store/blobStore")).toBe(true);
  });
});
