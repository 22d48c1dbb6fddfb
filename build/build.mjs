#!/usr/bin/env node
/**
 * `npm run build`: the CLI bundle in dist/cli, the renderer (with its own Vite config) and the
 * Electron bundles in out/.
 * Typechecking is `npm run typecheck`; packaging is `npm run package`.
 */
import { relative } from "node:path";
import { buildElectron, buildRenderer, findViteConfig, ROOT } from "./build-electron.mjs";
import { buildCliBundle } from "./cliBundle.mjs";

try {
  const cli = await buildCliBundle();
  console.log(`build: dist/cli/${cli.bundle}`);
  const config = findViteConfig();
  const rendererDir = config ? await buildRenderer(config) : undefined;
  if (!config) console.log("build: the renderer has no Vite config yet; building the Electron bundles only");
  const out = await buildElectron({ rendererDir, production: true });
  console.log(`build: ${[out.main, out.preload, ...(rendererDir ? [rendererDir] : [])].map((p) => relative(ROOT, p)).join(", ")}`);
} catch (err) {
  console.error(`build: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
  process.exit(1);
}
