/**
 * The inspector window: created on demand, shown from the tray, hidden (not closed) when the user
 * closes it, so the app lives on in the tray until Quit. Every security switch is set explicitly
 * rather than relying on Electron's defaults, which have changed between versions.
 */
import type { BrowserWindowConstructor, BrowserWindowInstance, WindowOptions } from "../ports";
import { isAppUrl } from "../ipc/senderCheck";

export interface WindowDeps {
  preloadPath: string;
  /** The page to load: the app:// bundle's index. */
  url: string;
  iconPath?: string;
  /** True once Quit was chosen: then close really closes. */
  isQuitting(): boolean;
  /** DevTools only for development builds. */
  devTools: boolean;
  onLoadError?(message: string): void;
}

export interface WindowHandle {
  /** Shows (creating if needed) and focuses the window. */
  show(): BrowserWindowInstance;
  /** The window if it exists and is not destroyed. */
  current(): BrowserWindowInstance | null;
  /** The id of its webContents, for the IPC sender check. */
  contentsId(): number | null;
  destroy(): void;
}

export function windowOptions(deps: Pick<WindowDeps, "preloadPath" | "iconPath" | "devTools">): WindowOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 520,
    show: false,
    title: "Spillway",
    backgroundColor: "#101418",
    ...(deps.iconPath ? { icon: deps.iconPath } : {}),
    webPreferences: {
      preload: deps.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: deps.devTools,
    },
  };
}

/** In-bundle navigations (a reload, a hash route) are harmless; anything else is refused. */
function guard(event: { preventDefault(): void }, url: string): void {
  if (!isAppUrl(url)) event.preventDefault();
}

/** Locks a window to the bundle: no navigation away, no redirects away, no popups, no webviews. */
export function lockDown(win: BrowserWindowInstance): void {
  const wc = win.webContents;
  wc.setWindowOpenHandler(() => ({ action: "deny" }));
  wc.on("will-navigate", guard);
  wc.on("will-redirect", guard);
  wc.on("will-attach-webview", (event) => event.preventDefault());
}

export function setupWindow(electron: { BrowserWindow: BrowserWindowConstructor }, deps: WindowDeps): WindowHandle {
  let win: BrowserWindowInstance | null = null;

  const create = (): BrowserWindowInstance => {
    const w = new electron.BrowserWindow(windowOptions(deps));
    lockDown(w);
    w.on("ready-to-show", () => w.show());
    w.on("close", (event) => {
      if (!deps.isQuitting()) {
        event.preventDefault();
        w.hide();
      }
    });
    w.on("closed", () => {
      if (win === w) win = null;
    });
    w.loadURL(deps.url).catch((err: unknown) => deps.onLoadError?.(`the inspector did not load: ${String(err)}`));
    return w;
  };

  const current = () => (win && !win.isDestroyed() ? win : null);

  return {
    show() {
      const existing = current();
      if (existing) {
        if (existing.isMinimized()) existing.restore();
        existing.show();
        existing.focus();
        return existing;
      }
      win = create();
      return win;
    },
    current,
    contentsId: () => current()?.webContents.id ?? null,
    destroy() {
      current()?.destroy();
      win = null;
    },
  };
}
