/**
 * The Electron main process: a composition root and nothing more. It binds Electron's real
 * objects to the setupX modules (which take them as parameters and are tested under Node with
 * fakes) and orders their lifecycle: scheme before ready, single instance, host, window, IPC,
 * tray, menu; on quit, the endpoint and the engine close before the process exits.
 */
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, protocol, safeStorage, session, Tray } from "electron";
import { homedir } from "node:os";
import { resolveHome } from "../core/home/paths";
import { describeError } from "../core/errors";
import { stderrLogger } from "../core/runtime";
import { appPaths } from "./app/appPaths";
import { setupEndpoint } from "./endpoint/setupEndpoint";
import { createDesktopHost, type DesktopHost } from "./host/desktopHost";
import { EVENT_CHANNEL } from "./ipc/channels";
import { pushEvents } from "./ipc/pushEvents";
import { createSenderCheck, isAppUrl } from "./ipc/senderCheck";
import { setupIpc } from "./ipc/setupIpc";
import { claimSingleInstance } from "./lifecycle/singleInstance";
import { setupMenu } from "./menu/setupMenu";
import { APP_INDEX_URL } from "./protocol/appPath";
import { APP_SCHEME_PRIVILEGES, setupProtocol } from "./protocol/setupProtocol";
import { applyStartAtLogin, HIDDEN_FLAG, loginItemOptions } from "./settings/loginItem";
import { openSettings, settingsDir, type DesktopSettings } from "./settings/settings";
import { readTrayFigures } from "./tray/trayFigures";
import { setupTray, type TrayHandle } from "./tray/setupTray";
import { hardenSession } from "./window/hardenSession";
import { setupWindow } from "./window/setupWindow";

const logger = stderrLogger("info");
const paths = appPaths(__dirname, process.env, process.platform);
const devTools = !app.isPackaged && process.env.SPILLWAY_DEVTOOLS === "1";

// Must happen before "ready": app:// gets an origin and counts as a secure context.
protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);

let quitting = false;
let cleaned = false;
const teardown: (() => void | Promise<void>)[] = [];

async function start(): Promise<void> {
  const home = resolveHome({}, process.env);
  const settings = openSettings(settingsDir(process.env, app.getPath("userData")), (m) => logger.warn(m));
  let host: DesktopHost;
  try {
    host = createDesktopHost({
      home,
      configPath: process.env.SPILLWAY_CONFIG,
      safeStorage,
      logger,
      downloadsDir: () => app.getPath("downloads"),
      // `npm start` names the checkout; a packaged app has no bin/ to point agents at.
      appRoot: process.env.SPILLWAY_APP_ROOT ?? app.getAppPath(),
    });
  } catch (err) {
    dialog.showErrorBox("Spillway could not start", describeError(err));
    app.exit(1);
    return;
  }
  teardown.push(() => host.close());

  hardenSession(session.defaultSession);
  teardown.push(setupProtocol({ protocol }, { rendererDir: paths.rendererDir }));

  const window = setupWindow(
    { BrowserWindow },
    {
      preloadPath: paths.preload,
      url: APP_INDEX_URL,
      iconPath: paths.windowIcon,
      isQuitting: () => quitting,
      devTools,
      onLoadError: (m) => logger.error(m),
    },
  );
  const openInspector = () => void window.show();
  claimSecondInstance = openInspector;

  teardown.push(setupIpc({ ipcMain }, { dispatch: host.dispatch, isTrustedSender: createSenderCheck(window.contentsId) }));
  teardown.push(
    pushEvents(
      {
        onEngineEvent: (l) => host.engine.onEvent(l),
        onEndpointChange: (l) => host.endpointControl.onChange?.(l) ?? (() => {}),
        lastLedgerId: () => host.engine.reader.lastEventId(),
      },
      (p) => {
        const wc = window.current()?.webContents;
        if (wc && !wc.isDestroyed()) wc.send(EVENT_CHANNEL, p);
      },
    ),
  );

  const login = loginItemOptions(process.env, process.platform, process.execPath, homedir());
  const updateSettings = (patch: Partial<DesktopSettings>) => {
    const next = settings.update(patch);
    if (patch.startAtLogin !== undefined) applyStartAtLogin(app, login, next.startAtLogin);
  };

  // Re-applied at each start: the AppImage (the command the login item runs) may have moved.
  if (settings.get().startAtLogin) applyStartAtLogin(app, login, true);

  const quit = () => app.quit();
  let tray: TrayHandle | null = null;
  try {
    tray = setupTray(
      { Tray, Menu, nativeImage, clipboard },
      {
        iconPath: paths.trayIcon,
        endpoint: host.endpoint,
        figures: () => readTrayFigures(host.engine),
        claudeCodeConfig: host.claudeCodeConfig,
        settings: () => settings.get(),
        updateSettings,
        openInspector,
        quit,
        onActivity: (l) => host.engine.onEvent(() => l()),
        onError: (m) => logger.warn(m),
      },
    );
    teardown.push(() => tray?.destroy());
  } catch (err) {
    // Some Linux desktops have no tray: the window then stays the way in (and out).
    logger.warn("no system tray; closing the window will quit", { error: describeError(err) });
  }
  setupMenu({ Menu }, { platform: process.platform, devTools, openInspector, quit });

  teardown.push(
    setupEndpoint({ endpoint: host.endpoint, startWithApp: settings.get().startEndpointWithApp, onError: (m) => logger.warn(m) }),
  );
  const hidden = process.argv.includes(HIDDEN_FLAG);
  if (!hidden || !tray) window.show();
  if (!tray) quitOnClose = true;

  app.on("activate", openInspector);
}

let claimSecondInstance: () => void = () => {};
let quitOnClose = false;

if (claimSingleInstance(app, () => claimSecondInstance())) {
  // Defence in depth: any webContents that ever appears gets the same locks as the main window.
  app.on("web-contents-created", (_e, contents) => {
    contents.setWindowOpenHandler(() => ({ action: "deny" }));
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.on("will-navigate", (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
  });
  // The app lives in the tray: closing the last window is not quitting (unless there is no tray).
  app.on("window-all-closed", () => {
    if (quitOnClose) app.quit();
  });
  app.on("before-quit", (event) => {
    quitting = true;
    if (cleaned) return;
    event.preventDefault();
    void (async () => {
      for (const step of teardown.splice(0).toReversed()) {
        try {
          await step();
        } catch (err) {
          logger.warn("shutdown step failed", { error: describeError(err) });
        }
      }
      cleaned = true;
      app.quit();
    })();
  });
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      logger.error("Spillway failed to start", { error: describeError(err) });
      dialog.showErrorBox("Spillway could not start", describeError(err));
      app.exit(1);
    });
}
