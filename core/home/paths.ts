/** Where the home and its config file are, without reading either: what the early initialize answer may load (no zod). */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface HomeOptions {
  home?: string;
  config?: string;
}

/** The home: `--home`, else `$SPILLWAY_HOME`, else `~/.spillway`. */
export function resolveHome(opts: HomeOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.home) return resolve(opts.home);
  if (env.SPILLWAY_HOME) return resolve(env.SPILLWAY_HOME);
  return join(homedir(), ".spillway");
}

/** The config file that applies: `--config`, else the home's config.json. */
export function configPath(home: string, opts: HomeOptions): string {
  return opts.config ? resolve(opts.config) : join(home, "config.json");
}
