/**
 * The application menu. macOS needs an Edit menu for copy and paste to work in the window at
 * all; elsewhere the menu bar only offers what the tray does. No "Reload" outside development:
 * reloading mid-operation would drop the inspector's live subscriptions for nothing.
 */
import type { MenuItemSpec, MenuPort } from "../ports";

export interface MenuDeps {
  platform: NodeJS.Platform;
  devTools: boolean;
  openInspector(): void;
  quit(): void;
}

export function menuTemplate(deps: MenuDeps): MenuItemSpec[] {
  const mac = deps.platform === "darwin";
  const app: MenuItemSpec = {
    label: mac ? "Spillway" : "File",
    submenu: [
      ...(mac
        ? ([{ role: "about" }, { type: "separator" }, { role: "hide" }, { role: "unhide" }, { type: "separator" }] as MenuItemSpec[])
        : []),
      { label: "Open Inspector", accelerator: "CmdOrCtrl+Shift+I", click: deps.openInspector },
      { role: "close", label: "Close Window" },
      { type: "separator" },
      { label: "Quit Spillway", accelerator: "CmdOrCtrl+Q", click: deps.quit },
    ],
  };
  const edit: MenuItemSpec = {
    label: "Edit",
    submenu: [
      { role: "undo" },
      { role: "redo" },
      { type: "separator" },
      { role: "cut" },
      { role: "copy" },
      { role: "paste" },
      { role: "selectAll" },
    ],
  };
  const view: MenuItemSpec = {
    label: "View",
    submenu: deps.devTools ? [{ role: "reload" }, { role: "toggleDevTools" }] : [{ role: "minimize" }],
  };
  return [app, edit, view];
}

export function setupMenu(electron: { Menu: MenuPort }, deps: MenuDeps): void {
  electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(menuTemplate(deps)));
}
