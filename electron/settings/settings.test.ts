import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyStartAtLogin, AUTOSTART_FILE, HIDDEN_FLAG, loginItemOptions } from "./loginItem";
import { openSettings, SETTINGS_FILE, settingsDir } from "./settings";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "spillway-settings-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("desktop settings", () => {
  it("defaults to off, persists changes in a private file, and reads them back", () => {
    const s = openSettings(dir);
    expect(s.get()).toEqual({ startAtLogin: false, startEndpointWithApp: false });
    s.update({ startEndpointWithApp: true });
    expect(statSync(join(dir, SETTINGS_FILE)).mode & 0o777).toBe(0o600);
    expect(openSettings(dir).get()).toEqual({ startAtLogin: false, startEndpointWithApp: true });
  });

  it("falls back to the defaults, with a warning, when the file is damaged", () => {
    writeFileSync(join(dir, SETTINGS_FILE), "{ not json");
    const warnings: string[] = [];
    expect(openSettings(dir, (m) => warnings.push(m)).get().startAtLogin).toBe(false);
    expect(warnings[0]).toContain(SETTINGS_FILE);
  });

  it("lives in $SPILLWAY_HOME when set, else in Electron's userData", () => {
    expect(settingsDir({ SPILLWAY_HOME: "/h" }, "/user-data")).toBe("/h");
    expect(settingsDir({}, "/user-data")).toBe("/user-data");
  });
});

describe("start at login", () => {
  it("uses Electron's login items on macOS and Windows, starting hidden", () => {
    const calls: unknown[] = [];
    applyStartAtLogin(
      { setLoginItemSettings: (s) => void calls.push(s) },
      { platform: "darwin", command: "/A.app", autostartDir: dir },
      true,
    );
    expect(calls).toEqual([{ openAtLogin: true, args: [HIDDEN_FLAG] }]);
  });

  it("writes and removes a freedesktop autostart entry on Linux, pointing at the AppImage", () => {
    const opts = loginItemOptions(
      { APPIMAGE: "/opt/Spillway $1.AppImage", XDG_CONFIG_HOME: dir },
      "linux",
      "/tmp/.mount/spillway",
      "/home/u",
    );
    const app = {
      setLoginItemSettings: () => {
        throw new Error("not on Linux");
      },
    };
    applyStartAtLogin(app, opts, true);
    const text = readFileSync(join(dir, "autostart", AUTOSTART_FILE), "utf8");
    expect(text).toContain(`Exec="/opt/Spillway \\$1.AppImage" ${HIDDEN_FLAG}`);
    applyStartAtLogin(app, opts, false);
    expect(existsSync(join(dir, "autostart", AUTOSTART_FILE))).toBe(false);
  });
});
