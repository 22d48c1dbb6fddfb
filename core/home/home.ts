/** Which config applies, read and checked: `--config`, else the home's config.json (paths.ts finds both). */
import { existsSync } from "node:fs";
import { loadConfigFile, type SpillwayConfig } from "../config/config";
import { ErrorCode, SpillwayError } from "../errors";
import { configPath, type HomeOptions } from "./paths";

/**
 * The home's own config.json may be absent (defaults apply); a file named with `--config` (or
 * SPILLWAY_CONFIG) must exist: a typo there would otherwise run with defaults and no upstreams.
 */
export function resolveConfig(home: string, opts: HomeOptions): { path: string; config: SpillwayConfig } {
  const path = configPath(home, opts);
  if (opts.config && !existsSync(path)) {
    throw new SpillwayError(ErrorCode.BadConfig, `${path}: no such config file (named with --config); create it or leave --config out.`);
  }
  return { path, config: loadConfigFile(path) };
}
