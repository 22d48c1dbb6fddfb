/** Which config applies, read and checked: `--config`, else the home's config.json (paths.ts finds both). */
import { loadConfigFile, type SpillwayConfig } from "../config/config";
import { configPath, type HomeOptions } from "./paths";

export function resolveConfig(home: string, opts: HomeOptions): { path: string; config: SpillwayConfig } {
  const path = configPath(home, opts);
  return { path, config: loadConfigFile(path) };
}
