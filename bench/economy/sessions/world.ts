/** The worlds sessions run in: fixed temp folders holding copies of real source trees, recreated for every run. */
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
export { upstream } from "../../../tests/mcp/helpers/setup";

const require = createRequire(import.meta.url);

/** A package's folder in node_modules (pinned in package-lock.json, so its files do not move). */
export function packageDir(pkg: string): string {
  // Resolving "<pkg>/package.json" can land on a nested one (an exports map); cut at the package.
  const file = require.resolve(`${pkg}/package.json`);
  const at = file.lastIndexOf(`/node_modules/${pkg}/`);
  return at === -1 ? dirname(file) : file.slice(0, at + `/node_modules/${pkg}`.length);
}

/** The folder of session `name`'s world (the same on every run). */
export function worldPath(name: string, ...rest: string[]): string {
  return join(tmpdir(), "spillway-economy", name, ...rest);
}

/**
 * A folder with the same path on every run, so the four modes see byte-identical results
 * (paths appear in some of them); `copies` maps a name inside it to a source folder.
 */
export function freshDir(name: string, copies: Record<string, string> = {}): { path: string; cleanup(): void } {
  const path = worldPath(name);
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  for (const [to, from] of Object.entries(copies)) cpSync(from, join(path, to), { recursive: true });
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
