/**
 * Where the bundled app finds its parts, relative to out/main/index.cjs. The renderer folder is
 * Vite's outDir, which the build script bakes in (relative to out/main) so it is never guessed
 * twice; SPILLWAY_RENDERER_DIR overrides it for a renderer built elsewhere.
 */
import { join, resolve } from "node:path";

declare const __SPILLWAY_RENDERER_DIR__: string | undefined;

export interface AppPaths {
  preload: string;
  rendererDir: string;
  trayIcon: string;
  windowIcon: string;
}

export function appPaths(mainDir: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): AppPaths {
  const baked = typeof __SPILLWAY_RENDERER_DIR__ === "string" ? __SPILLWAY_RENDERER_DIR__ : "../renderer";
  const icons = join(mainDir, "..", "icons");
  return {
    preload: join(mainDir, "..", "preload", "index.cjs"),
    rendererDir: env.SPILLWAY_RENDERER_DIR ? resolve(env.SPILLWAY_RENDERER_DIR) : resolve(mainDir, baked),
    // macOS menu bar icons are templates (black + alpha, tinted by the system); the others are coloured.
    trayIcon: join(icons, platform === "darwin" ? "trayTemplate.png" : "tray.png"),
    windowIcon: join(icons, "icon-256.png"),
  };
}
