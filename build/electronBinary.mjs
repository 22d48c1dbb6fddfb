/**
 * Finds the Electron executable WITHOUT loading the electron package's index.js: from electron 42
 * on, that index downloads the binary when it is missing, which fails (slowly) offline. Reads
 * the same facts the index would: ELECTRON_OVERRIDE_DIST_PATH, path.txt and dist/.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** `{ path }` when an executable exists, else `{ path: null, reason }` (one sentence). */
export function findElectronBinary(root, env = process.env) {
  let pkgDir;
  try {
    pkgDir = dirname(createRequire(join(root, "package.json")).resolve("electron/package.json"));
  } catch {
    return { path: null, reason: "the electron package is not installed" };
  }
  const pathFile = join(pkgDir, "path.txt");
  const relative = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || (process.platform === "win32" ? "electron.exe" : "electron"));
    return existsSync(p) ? { path: p } : { path: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no Electron executable (${p})` };
  }
  if (!relative) return { path: null, reason: "node_modules/electron has no dist/: its binary was never downloaded" };
  const p = join(pkgDir, "dist", relative);
  return existsSync(p) ? { path: p } : { path: null, reason: `the Electron binary is missing (${p})` };
}
