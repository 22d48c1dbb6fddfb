/**
 * Start at login. Electron's setLoginItemSettings covers macOS and Windows only; on Linux the
 * freedesktop way is a .desktop file in ~/.config/autostart, written (or removed) here.
 * The app starts hidden (tray only) when launched this way.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const HIDDEN_FLAG = "--hidden";

export interface LoginItemPort {
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

export interface LoginItemOptions {
  platform: NodeJS.Platform;
  /** The command to start the app: the AppImage when running from one, else the executable. */
  command: string;
  /** ~/.config/autostart (or $XDG_CONFIG_HOME/autostart). */
  autostartDir: string;
}

export const AUTOSTART_FILE = "spillway.desktop";

function desktopEntry(command: string): string {
  const quoted = `"${command.replace(/(["`$\\])/g, "\\$1")}"`;
  return [
    "[Desktop Entry]",
    "Type=Application",
    "Name=Spillway",
    "Comment=Keeps oversized AI-agent tool results out of the model's context",
    `Exec=${quoted} ${HIDDEN_FLAG}`,
    "Terminal=false",
    "X-GNOME-Autostart-enabled=true",
    "",
  ].join("\n");
}

/** Turns start-at-login on or off for this platform. */
export function applyStartAtLogin(app: LoginItemPort, opts: LoginItemOptions, enabled: boolean): void {
  if (opts.platform !== "linux") {
    app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
    return;
  }
  const file = join(opts.autostartDir, AUTOSTART_FILE);
  if (enabled) {
    mkdirSync(opts.autostartDir, { recursive: true });
    writeFileSync(file, desktopEntry(opts.command), { mode: 0o644 });
  } else if (existsSync(file)) {
    rmSync(file);
  }
}

/** The launch command and autostart folder for this process (read from the environment). */
export function loginItemOptions(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, execPath: string, home: string): LoginItemOptions {
  const config = env.XDG_CONFIG_HOME || join(home, ".config");
  return { platform, command: env.APPIMAGE || execPath, autostartDir: join(config, "autostart") };
}
