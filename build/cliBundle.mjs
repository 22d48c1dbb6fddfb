#!/usr/bin/env node
/**
 * The prebuilt CLI: core/cli/main.ts with its dependencies (the MCP SDK, zod…) in one script
 * under dist/cli (CommonJS in a function wrapper), which bin/spillway.js runs with a V8 code cache. Compiling the TypeScript
 * with tsx on every start cost about 400 ms, and resolving and compiling a few hundred separate
 * modules most of the rest; an agent spawns `spillway mcp` for every session and gives up on
 * servers that are slow to list their tools.
 *
 * bin/spillway.js rebuilds the bundle when a file it was built from changed (manifest.json lists
 * each with its mtime and size), so a checkout, an edit or `npm install` never runs stale code;
 * without esbuild (a production install) it falls back to tsx.
 *
 * Native modules stay external (better-sqlite3, re2), and so do the tokenizer tables, which are
 * required on first use only.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_DIR = join(ROOT, "dist/cli");
const EXTERNAL = ["better-sqlite3", "re2", "gpt-tokenizer", "electron"];
/** Files outside the module graph whose change must rebuild: the build itself and installed packages. */
const EXTRA_INPUTS = ["build/cliBundle.mjs", "package.json", "node_modules/.package-lock.json"];
/** Superseded bundles are removed once this old: a process started just before a rebuild may still be reading one. */
const OLD_BUNDLE_MS = 10 * 60_000;

/**
 * Sources are ESM and some resolve files next to themselves through import.meta.url (the
 * inspector's static folder, the bin path `connect` prints). In the bundle each file's
 * import.meta becomes its own source location, computed from where the bundle sits.
 */
const sourceMeta = {
  name: "spillway-source-meta",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.split(sep).includes("node_modules")) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return { contents: text, loader: "ts" };
      const rel = JSON.stringify(relative(ROOT, args.path).split(sep).join("/"));
      const contents = text
        .replaceAll("import.meta.url", `__spillwaySource.url(${rel})`)
        .replaceAll("import.meta.dirname", `__spillwaySource.dirname(${rel})`)
        .replaceAll("import.meta.filename", `__spillwaySource.filename(${rel})`);
      return { contents, loader: "ts" };
    });
  },
};

/**
 * The file is one function expression taking what a CommonJS module gets, which bin/spillway.js
 * compiles as is: wrapping it at load time would hold a second copy of the source in memory.
 */
/**
 * zod exports every error-message locale as `z.locales` (about 260 KB, a quarter of the bundle,
 * read and compiled on every start); Spillway's messages are English, so the bundle keeps `en`.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!args.importer.split(sep).includes("zod")) return undefined;
      return { path: join(dirname(args.importer), "../locales/en.js"), namespace: "zod-locales" };
    });
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * The SDK's Server and Client import their default validator (Ajv with its formats, about 130 KB)
 * at load; Spillway passes its own (core/mcp/schemaValidator.ts), so in the bundle that import
 * gets a stand-in that loads the real one only if something ever constructs and uses it.
 */
const sdkLazyAjv = {
  name: "sdk-lazy-ajv",
  setup(b) {
    b.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) =>
      /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/](server|client)[\\/]index\.js$/.test(args.importer)
        ? { path: "ajv-provider", namespace: "sdk-lazy-ajv" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "sdk-lazy-ajv" }, () => ({
      contents: [
        "export class AjvJsonSchemaValidator {",
        "  constructor(ajv) { this.ajv = ajv; this.real = null; }",
        "  getValidator(schema) {",
        '    this.real ??= new (require("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator)(this.ajv);',
        "    return this.real.getValidator(schema);",
        "  }",
        "}",
      ].join("\n"),
      resolveDir: ROOT,
      loader: "js",
    }));
  },
};

const BANNER = [
  "(function (exports, require, module, __filename, __dirname) {",
  '"use strict";',
  "const __spillwaySource = (() => {",
  '  const path = require("node:path"), url = require("node:url"), root = path.resolve(__dirname, "../..");',
  "  const filename = (rel) => path.join(root, rel);",
  "  return { filename, dirname: (rel) => path.dirname(filename(rel)), url: (rel) => url.pathToFileURL(filename(rel)).href };",
  "})();",
].join("\n");

function fingerprint(rel) {
  try {
    const s = statSync(join(ROOT, rel));
    return [rel, s.mtimeMs, s.size];
  } catch {
    return [rel, 0, -1];
  }
}

function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** One bundle of `entry` (a path under ROOT): its code and the sources it was built from. */
async function bundle(entry, plugins) {
  // Imported here: without esbuild (a production install) importing this file still works.
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    write: false,
    outfile: join(CLI_DIR, "spillway.cjs"),
    platform: "node",
    format: "cjs",
    target: "node20",
    external: EXTERNAL,
    plugins,
    banner: { js: BANNER },
    footer: { js: "})" },
    minify: true,
    keepNames: false,
    legalComments: "none",
    metafile: true,
    logLevel: "error",
  });
  const code = result.outputFiles[0].contents;
  const sources = Object.keys(result.metafile.inputs).filter((p) => !p.split("/").includes("node_modules"));
  return { code, sources };
}

function named(prefix, code) {
  return `${prefix}-${createHash("sha256").update(code).digest("hex").slice(0, 12)}.script.js`;
}

/**
 * Builds dist/cli/spillway-<hash>.script.js (the CLI), spillway-early-<hash>.script.js (what
 * `spillway mcp` runs first, core/cli/early.ts: a few KB that answer initialize before the CLI
 * loads) and the manifest naming both; returns the manifest.
 */
export async function buildCliBundle() {
  const [main, early] = await Promise.all([
    bundle("core/cli/main.ts", [sourceMeta, zodEnglishOnly, sdkLazyAjv]),
    bundle("core/cli/early.ts", [sourceMeta]),
  ]);
  const name = named("spillway", main.code);
  const earlyName = named("spillway-early", early.code);
  mkdirSync(CLI_DIR, { recursive: true });
  writeAtomic(join(CLI_DIR, name), main.code);
  writeAtomic(join(CLI_DIR, earlyName), early.code);
  const sources = [...new Set([...main.sources, ...early.sources])];
  const manifest = { bundle: name, early: earlyName, builtAt: Date.now(), inputs: [...sources, ...EXTRA_INPUTS].map(fingerprint) };
  writeAtomic(join(CLI_DIR, "manifest.json"), JSON.stringify(manifest));
  const now = Date.now();
  for (const f of readdirSync(CLI_DIR)) {
    if (!f.startsWith("spillway-") || f.startsWith(name) || f === earlyName) continue;
    const p = join(CLI_DIR, f);
    if (now - statSync(p).mtimeMs > OLD_BUNDLE_MS) rmSync(p, { force: true });
  }
  return manifest;
}

// `--optional` (the prepare script): a failed build is a note, not a failed install; the CLI then
// runs through tsx until a build succeeds.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const optional = process.argv.includes("--optional");
  buildCliBundle()
    .then((m) => console.log(`cli: built dist/cli/${m.bundle} from ${m.inputs.length} files`))
    .catch((err) => {
      console.error(
        `cli: ${optional ? "not bundled (it runs through tsx)" : "build failed"}: ${err instanceof Error ? err.message.split("\n")[0] : err}`,
      );
      process.exit(optional ? 0 : 1);
    });
}
