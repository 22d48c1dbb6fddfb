#!/usr/bin/env node
/**
 * Bundles the Electron main process and preload with esbuild, as CommonJS: a sandboxed preload
 * cannot load ESM, and the project is "type": "module", so the bundles are .cjs. Native modules
 * (better-sqlite3, re2) and electron itself stay external: they are loaded at run time from
 * node_modules, rebuilt for Electron's ABI by build/package.mjs.
 * The renderer folder (Vite's outDir, asked of Vite itself) is baked in relative to out/main.
 */
import { build } from "esbuild";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUT = join(ROOT, "out");
const EXTERNAL = ["electron", "better-sqlite3", "re2"];
const CANDIDATE_CONFIGS = [
  "renderer/vite.config.ts",
  "renderer/vite.config.mts",
  "renderer/vite.config.mjs",
  "vite.config.ts",
  "vite.config.mts",
  "vite.config.mjs",
];

/** The renderer's Vite config, if the renderer has one yet. */
export function findViteConfig() {
  for (const rel of CANDIDATE_CONFIGS) {
    const p = join(ROOT, rel);
    if (existsSync(p)) return p;
  }
  return null;
}

/** Vite's resolved outDir for the renderer (absolute), or out/renderer when there is no config. */
export async function rendererOutDir(configFile = findViteConfig()) {
  if (!configFile) return join(OUT, "renderer");
  const { resolveConfig } = await import("vite");
  // The config's folder is the root, as with `vite build renderer`.
  const config = await resolveConfig({ configFile, root: dirname(configFile), logLevel: "silent" }, "build", "production");
  return join(config.root, config.build.outDir);
}

/** Builds the renderer with its own Vite config; returns the output folder. */
export async function buildRenderer(configFile = findViteConfig()) {
  if (!configFile) throw new Error("no renderer Vite config found (looked for " + CANDIDATE_CONFIGS.join(", ") + ")");
  const { build: viteBuild } = await import("vite");
  await viteBuild({ configFile, root: dirname(configFile), logLevel: "warn", mode: "production" });
  return rendererOutDir(configFile);
}

/**
 * Bundles main/index.cjs and preload/index.cjs into `outDir` (default out/), and copies the icons
 * the app loads. Tests pass their own outDir so they never touch the checkout's out/.
 */
export async function buildElectron({ rendererDir, production = true, outDir = OUT } = {}) {
  const renderer = rendererDir ?? (await rendererOutDir());
  const common = {
    bundle: true,
    format: "cjs",
    sourcemap: production ? false : "inline",
    minify: false,
    legalComments: "none",
    logLevel: "warning",
    absWorkingDir: ROOT,
  };
  await build({
    ...common,
    entryPoints: [join(ROOT, "electron/main.ts")],
    outfile: join(outDir, "main/index.cjs"),
    platform: "node",
    target: "node22",
    external: EXTERNAL,
    // core is ESM and may use import.meta.url (e.g. createRequire for lazily loaded tokenizer
    // tables); in the CJS bundle it becomes the bundle file's own URL, so such requires resolve
    // from node_modules as they do unbundled.
    banner: { js: 'const __spillway_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    define: {
      __SPILLWAY_RENDERER_DIR__: JSON.stringify(relative(join(outDir, "main"), renderer)),
      "import.meta.url": "__spillway_import_meta_url",
    },
  });
  await build({
    ...common,
    entryPoints: [join(ROOT, "electron/preload.ts")],
    outfile: join(outDir, "preload/index.cjs"),
    // The sandboxed preload has no Node: only `require("electron")` works there.
    platform: "browser",
    target: "chrome130",
    external: ["electron"],
  });
  mkdirSync(join(outDir, "icons"), { recursive: true });
  for (const name of ["tray.png", "tray@2x.png", "trayTemplate.png", "trayTemplate@2x.png"]) {
    cpSync(join(ROOT, "build/icons", name), join(outDir, "icons", name));
  }
  cpSync(join(ROOT, "build/icons/app/256x256.png"), join(outDir, "icons", "icon-256.png"));
  return { main: join(outDir, "main/index.cjs"), preload: join(outDir, "preload/index.cjs"), rendererDir: renderer };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildElectron({ production: !process.argv.includes("--dev") })
    .then((r) =>
      console.log(
        `electron: built ${relative(ROOT, r.main)} and ${relative(ROOT, r.preload)} (renderer: ${relative(ROOT, r.rendererDir)})`,
      ),
    )
    .catch((err) => {
      console.error(`electron: build failed: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
      process.exit(1);
    });
}
