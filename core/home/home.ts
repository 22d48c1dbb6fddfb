/** Where the store lives and which config applies: `--home`, `--config`, `$SPILLWAY_HOME`, `~/.spillway`. */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfigFile, type SpillwayConfig } from "../config/config";

export interface HomeOptions {
  home?: string;
  config?: string;
}

export function resolveHome(opts: HomeOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.home) return resolve(opts.home);
  if (env.SPILLWAY_HOME) return resolve(env.SPILLWAY_HOME);
  return join(homedir(), ".spillway");
}

export function resolveConfig(home: string, opts: HomeOptions): { path: string; config: SpillwayConfig } {
  const path = opts.config ? resolve(opts.config) : join(home, "config.json");
  return { path, config: loadConfigFile(path) };
}
