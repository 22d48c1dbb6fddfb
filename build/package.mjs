#!/usr/bin/env node
/**
 * `npm run package [-- --linux|--mac|--win]`: installers with electron-builder
 * (build/electron-builder.yml). Steps: get Electron's headers, rebuild the native modules
 * (better-sqlite3, re2) against them with electron-builder's install-app-deps, bundle
 * renderer + main + preload into out/, package, then rebuild the native modules for Node again
 * so tests keep working in this checkout (skip with --keep-electron-abi).
 *
 * Why the header step is explicit: a user npmrc `nodedir` (set on these machines) makes
 * node-gyp silently compile against Node's headers, so a rebuild "succeeds" with the wrong ABI
 * and the app crashes at start. Here nodedir is pointed at Electron's headers, and with no
 * headers to be had the script stops with one line instead of producing a broken app.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { buildElectron, buildRenderer, findViteConfig, OUT, ROOT } from "./build-electron.mjs";

const args = process.argv.slice(2);
const NATIVE = ["better-sqlite3", "re2"];

/** Stops packaging with one line; thrown (not exit) so the Node ABI is restored on the way out. */
class PackageError extends Error {}
function fail(line) {
  throw new PackageError(line);
}

function electronVersion() {
  const pkgPath = join(ROOT, "node_modules/electron/package.json");
  if (!existsSync(pkgPath)) fail("the electron package is not installed (npm ci first).");
  return JSON.parse(readFileSync(pkgPath, "utf8")).version;
}

/** Electron's Node headers in node-gyp's cache layout; downloaded once when missing. */
async function electronHeaders(version) {
  const dir = join(process.env.ELECTRON_GYP_DIR ?? join(homedir(), ".electron-gyp"), version);
  if (existsSync(join(dir, "include/node/node_version.h"))) return dir;
  const mirror = (process.env.ELECTRON_HEADERS_MIRROR ?? "https://www.electronjs.org/headers").replace(/\/$/, "");
  const url = `${mirror}/v${version}/node-v${version}-headers.tar.gz`;
  let body;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = Buffer.from(await res.arrayBuffer());
  } catch (err) {
    fail(
      `cannot download Electron ${version}'s headers from ${url} (${err?.cause?.code ?? err?.message ?? err}): ` +
        `better-sqlite3 and re2 cannot be rebuilt for Electron here, so no working app can be packaged; ` +
        `run this on a machine with internet access (or put the headers in ${dir}).`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const tarball = join(dir, "headers.tar.gz");
  writeFileSync(tarball, body);
  const untar = spawnSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"], { stdio: "inherit" });
  rmSync(tarball, { force: true });
  if (untar.status !== 0 || !existsSync(join(dir, "include/node/node_version.h"))) fail(`the Electron headers in ${dir} did not unpack.`);
  // node-gyp looks for this marker to accept a headers folder.
  writeFileSync(join(dir, "installVersion"), "11\n");
  return dir;
}

function run(what, command, argv, env = {}) {
  console.log(`spillway package: ${what}`);
  const r = spawnSync(command, argv, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env }, shell: process.platform === "win32" });
  if (r.status !== 0) fail(`${what} failed (exit ${r.status ?? r.signal}).`);
}

const bin = (name) => join(ROOT, "node_modules/.bin", process.platform === "win32" ? `${name}.cmd` : name);

/** Rebuilds the native modules for this Node again (after they were built for Electron). */
function restoreNodeAbi() {
  run("rebuilding better-sqlite3 and re2 for Node again (tests need them)", "npm", ["rebuild", ...NATIVE]);
}

async function main() {
  const version = electronVersion();
  const headers = await electronHeaders(version);
  const gypEnv = {
    npm_config_nodedir: headers,
    npm_config_runtime: "electron",
    npm_config_target: version,
    npm_config_disturl: "https://www.electronjs.org/headers",
  };

  let rebuilt = false;
  try {
    run(`rebuilding ${NATIVE.join(" and ")} for Electron ${version}`, bin("electron-builder"), ["install-app-deps"], gypEnv);
    rebuilt = true;

    const config = findViteConfig();
    if (!config) fail("the renderer has no Vite config yet, so there is no inspector to package.");
    const built = await buildRenderer(config);
    // The package carries out/ only: put the renderer at out/renderer if Vite wrote it elsewhere.
    const target = join(OUT, "renderer");
    if (built !== target) {
      rmSync(target, { recursive: true, force: true });
      cpSync(built, target, { recursive: true });
    }
    const bundles = await buildElectron({ rendererDir: target, production: true });
    console.log(`spillway package: bundled ${relative(ROOT, bundles.main)}, ${relative(ROOT, bundles.preload)}, ${relative(ROOT, target)}`);

    const platforms = args.filter((a) => ["--linux", "--mac", "--win"].includes(a));
    // Use the local Electron when there is one, so electron-builder does not download it again.
    const dist = join(ROOT, "node_modules/electron/dist");
    const local = existsSync(dist) ? [`-c.electronDist=${dist}`] : [];
    run("packaging with electron-builder", bin("electron-builder"), [
      "--config",
      "build/electron-builder.yml",
      "--publish",
      "never",
      ...local,
      ...platforms,
    ]);
    console.log(`spillway package: installers are in ${join(ROOT, "release")}`);
  } finally {
    if (rebuilt && !args.includes("--keep-electron-abi")) restoreNodeAbi();
  }
}

main().catch((err) => {
  console.error(`spillway package: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  process.exit(1);
});
