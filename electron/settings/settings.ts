/**
 * The desktop app's own options (not engine config): start at login, start the endpoint with
 * the app. A small JSON file, validated on read; a damaged file falls back to the defaults
 * rather than keeping the app from starting.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../core/fs/fsUtil";

export const SETTINGS_FILE = "desktop.json";

const SettingsSchema = z.object({
  startAtLogin: z.boolean().default(false),
  startEndpointWithApp: z.boolean().default(false),
});

export type DesktopSettings = z.infer<typeof SettingsSchema>;

export interface SettingsStore {
  get(): DesktopSettings;
  update(patch: Partial<DesktopSettings>): DesktopSettings;
  readonly path: string;
}

/**
 * Where the settings live: `$SPILLWAY_HOME` when set (one folder holds everything of that store),
 * else Electron's per-user data folder.
 */
export function settingsDir(env: NodeJS.ProcessEnv, userDataDir: string): string {
  return env.SPILLWAY_HOME ? env.SPILLWAY_HOME : userDataDir;
}

export function openSettings(dir: string, onWarn: (msg: string) => void = () => {}): SettingsStore {
  const path = join(dir, SETTINGS_FILE);
  let current = read();

  function read(): DesktopSettings {
    if (!existsSync(path)) return SettingsSchema.parse({});
    try {
      return SettingsSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    } catch (err) {
      onWarn(`${path} is not valid, using the defaults: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
      return SettingsSchema.parse({});
    }
  }

  return {
    path,
    get: () => ({ ...current }),
    update(patch) {
      current = SettingsSchema.parse({ ...current, ...patch });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(path, JSON.stringify(current, null, 2) + "\n");
      return { ...current };
    },
  };
}
