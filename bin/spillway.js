#!/usr/bin/env node
// The `spillway` command. It runs the prebuilt CLI bundle (dist/cli, see build/cliBundle.mjs) with
// a V8 code cache, rebuilding the bundle first when a source changed since it was built; where it
// cannot be built (no esbuild in a production install) it compiles the TypeScript with tsx.
// SPILLWAY_NO_BUNDLE=1 forces tsx.
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLI_DIR = join(ROOT, "dist/cli");
/**
 * The code cache is written after this long, or at exit if sooner, so it holds what the process
 * compiled on its way up; one per command, since each takes its own path through the bundle.
 */
const CACHE_AFTER_MS = 2_000;

function readManifest() {
  try {
    return JSON.parse(readFileSync(join(CLI_DIR, "manifest.json"), "utf8"));
  } catch {
    return null;
  }
}

function fresh(manifest) {
  // About 150 stats on every start: plain concatenation (forward slashes work on Windows too).
  const root = ROOT.endsWith(sep) ? ROOT : ROOT + sep;
  for (const [rel, mtimeMs, size] of manifest.inputs) {
    const s = statSync(root + rel, { throwIfNoEntry: false });
    if (s ? s.mtimeMs !== mtimeMs || s.size !== size : size !== -1) return false;
  }
  return true;
}

function fallback(what, err) {
  process.stderr.write(`spillway: the prebuilt CLI ${what} (${String(err?.message ?? err).split("\n")[0]}); running through tsx\n`);
}

function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** The bundle's exports, or null when there is no usable bundle. */
async function loadBundle() {
  if (process.env.SPILLWAY_NO_BUNDLE) return null;
  let manifest = readManifest();
  if (!manifest || !fresh(manifest)) {
    try {
      manifest = await (await import("../build/cliBundle.mjs")).buildCliBundle();
    } catch (err) {
      // No esbuild is a production install: tsx, quietly. Anything else is worth a line.
      if (err?.code !== "ERR_MODULE_NOT_FOUND") fallback("could not be built", err);
      return null;
    }
  }
  const file = join(CLI_DIR, manifest.bundle);
  const command = /^[a-z]+$/.test(process.argv[2] ?? "") ? process.argv[2] : "cli";
  const cacheFile = `${file}.${command}.cache`;
  let source;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The bundle is one function expression (see build/cliBundle.mjs).
  const module = { exports: {} };
  let script;
  try {
    script = new vm.Script(source, { filename: file, cachedData });
    script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  } catch (err) {
    fallback("did not load", err);
    return null;
  }
  if (!cachedData || script.cachedDataRejected) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      try {
        writeAtomic(cacheFile, script.createCachedData());
      } catch {
        // A read-only checkout runs without the cache.
      }
    };
    setTimeout(write, CACHE_AFTER_MS).unref();
    process.once("exit", write);
  }
  return module.exports;
}

let cli = await loadBundle();
if (!cli) {
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import("../core/cli/main.ts");
}
process.exitCode = await cli.main(process.argv.slice(2));
