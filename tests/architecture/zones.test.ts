// The three zones import one way: core knows neither Electron nor React; the renderer imports
// only types from core and nothing from Node or Electron; only electron/ imports "electron".
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;

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

interface Imp {
  file: string;
  spec: string;
  typeOnly: boolean;
}
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
    expect(importsOf(join(ROOT, "core", "engine", "engine.ts")).some((i) => /^\.\.\/store(\/|$)/.test(i.spec))).toBe(true);
  });

  it("only core/store and core/search touch SQLite or blob files; nothing outside core/engine reaches the engine's parts", () => {
    expect(storageViolations(productSources())).toEqual([]);
  });

  it("the storage rule catches a planted query, db handle or file read (a guard against a rule that cannot fail)", () => {
    const planted = [
      { file: "core/inspector/handlers/x.ts", text: 'const n = db.prepare("SELECT 1").get();' },
      { file: "electron/main.ts", text: "host.engine.store.db.pragma('x');" },
      { file: "core/cli/commands/x.ts", text: "readFileSync(store.files.pathOf(id));" },
      { file: "core/mcp/x.ts", text: "engineInternals(engine).store.read(id);" },
      { file: "core/store/x.ts", text: 'db.prepare("SELECT 1")' },
    ];
    expect(storageViolations(planted).map((v) => v.file)).toEqual([
      "core/inspector/handlers/x.ts",
      "electron/main.ts",
      "core/cli/commands/x.ts",
      "core/mcp/x.ts",
    ]);
  });
});

/** Product code: core/, electron/ and bin/, without tests. */
function productSources(): { file: string; text: string }[] {
  return ["core", "electron", "bin"]
    .flatMap((d) => sources(join(ROOT, d)))
    .filter((f) => !/\.test\.tsx?$/.test(f))
    .map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, "utf8") }));
}

const STORAGE_RULES: { what: string; re: RegExp }[] = [
  { what: "prepares SQL", re: /\.prepare\(/ },
  { what: "uses a database handle", re: /\.db\b|\.pragma\(/ },
  { what: "imports better-sqlite3", re: /from\s+["']better-sqlite3["']/ },
  { what: "reads blob files", re: /\.pathOf\(|\.files\.(read|scan)\(/ },
  { what: "reaches the engine's parts", re: /engineInternals\(/ },
];

function storageViolations(files: { file: string; text: string }[]): { file: string; what: string }[] {
  return files
    .filter((f) => !/^core\/(store|search)\//.test(f.file) && f.file !== "core/engine/engine.ts")
    .flatMap((f) => STORAGE_RULES.filter((r) => r.re.test(f.text)).map((r) => ({ file: f.file, what: r.what })));
}
