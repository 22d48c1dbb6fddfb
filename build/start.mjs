#!/usr/bin/env node
/**
 * `npm start`: builds what is stale (the renderer, the Electron bundles) and launches the app.
 * Where no Electron binary exists (these machines: it cannot be downloaded), it says so in one
 * line and runs `spillway serve` instead, whose output (with the URL) is passed through.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildElectron, buildRenderer, findViteConfig, rendererOutDir, ROOT } from "./build-electron.mjs";
import { findElectronBinary } from "./electronBinary.mjs";

const args = process.argv.slice(2);
const webOnly = args.includes("--web");
const passThrough = args.filter((a) => a !== "--web");

/** The newest modification time under `dir`, skipping `skip` (the build output). */
function newest(dir, skip) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p === skip || name === "node_modules") continue;
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p, skip) : s.mtimeMs);
  }
  return t;
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

/** Rebuilds the renderer when its sources are newer than its built index.html. */
async function ensureRenderer() {
  const config = findViteConfig();
  if (!config) return null;
  const out = await rendererOutDir(config);
  const built = mtime(join(out, "index.html"));
  if (built && built >= Math.max(newest(join(ROOT, "renderer"), out), mtime(config))) return out;
  return buildRenderer(config);
}

function run(command, argv, env = process.env) {
  const child = spawn(command, argv, { cwd: ROOT, stdio: "inherit", env });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  child.on("error", (err) => {
    console.error(`spillway start: could not run ${command}: ${err.message}`);
    process.exit(1);
  });
}

async function main() {
  const electron = webOnly ? { path: null, reason: "--web was given" } : findElectronBinary(ROOT);
  let rendererDir = null;
  try {
    rendererDir = await ensureRenderer();
  } catch (err) {
    console.error(`spillway start: the renderer did not build: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
  }
  if (!electron.path) {
    console.log(`spillway start: no Electron app here (${electron.reason}); starting the web inspector with \`spillway serve\` instead.`);
    run(process.execPath, [join(ROOT, "bin/spillway.js"), "serve", ...passThrough]);
    return;
  }
  const bundles = await buildElectron({ rendererDir: rendererDir ?? undefined, production: false });
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  // With "main" pointing at the bundle, `electron .` runs it and app.getAppPath() is the checkout.
  const entry = pkg.main === "out/main/index.cjs" ? ROOT : bundles.main;
  run(electron.path, [entry, ...passThrough], { ...process.env, SPILLWAY_APP_ROOT: ROOT });
}

main().catch((err) => {
  console.error(`spillway start: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
  process.exit(1);
});
