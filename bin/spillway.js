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

/** Compiles and runs one bundle file (one function expression, see build/cliBundle.mjs): its exports. */
function runBundle(file, cachedData) {
  const module = { exports: {} };
  const script = new vm.Script(readFileSync(file, "utf8"), { filename: file, cachedData });
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}

/**
 * The bundle's exports (null when there is no usable bundle), and for `spillway mcp` the early stdin
 * reader: the early bundle (core/cli/early.ts) runs first and answers initialize while the CLI loads.
 */
async function loadBundle(args) {
  const none = { cli: null, prelude: null };
  if (process.env.SPILLWAY_NO_BUNDLE) return none;
  let manifest = readManifest();
  if (!manifest || !fresh(manifest)) {
    try {
      manifest = await (await import("../build/cliBundle.mjs")).buildCliBundle();
    } catch (err) {
      // No esbuild is a production install: tsx, quietly. Anything else is worth a line.
      if (err?.code !== "ERR_MODULE_NOT_FOUND") fallback("could not be built", err);
      return none;
    }
  }
  let prelude = null;
  if (manifest.early && args[0] === "mcp") {
    try {
      // A few KB: compiled without a cache.
      prelude = await runBundle(join(CLI_DIR, manifest.early)).exports.startEarly(args, manifest.bundle);
    } catch (err) {
      fallback("did not load", err);
      return none;
    }
  }
  const file = join(CLI_DIR, manifest.bundle);
  const command = /^[a-z]+$/.test(args[0] ?? "") ? args[0] : "cli";
  const cacheFile = `${file}.${command}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  let loaded;
  try {
    loaded = runBundle(file, cachedData);
  } catch (err) {
    // The early reader may have read (and answered) already: tsx serves on from it.
    if (err?.code !== "ENOENT") fallback("did not load", err);
    return { cli: null, prelude };
  }
  const { script } = loaded;
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
  return { cli: loaded.exports, prelude };
}

const args = process.argv.slice(2);
let { cli, prelude } = await loadBundle(args);
if (!cli) {
  const { register } = await import("tsx/esm/api");
  register();
  prelude ??= await (await import("../core/cli/early.ts")).startEarly(args);
  cli = await import("../core/cli/main.ts");
}
try {
  process.exitCode = await cli.main(args, undefined, { stdinPrelude: prelude ?? undefined });
} finally {
  // A command that ended without taking stdin over (a bad config, a bad option) must not be kept alive by it.
  prelude?.close();
}
