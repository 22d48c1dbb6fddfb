/**
 * The tray: its own module with an explicit lifecycle (create, refresh, destroy). The menu is
 * rebuilt from state on every change rather than mutated, so what it shows is always a function
 * of the endpoint's status, the store's figures and the settings.
 */
import type { EndpointController } from "../endpoint/endpointController";
import type { ClipboardPort, MenuItemSpec, MenuPort, NativeImagePort, TrayConstructor, TrayInstance } from "../ports";
import type { DesktopSettings } from "../settings/settings";
import { trayTemplate, trayToolTip, type TrayFigures } from "./trayMenu";

export interface TrayElectron {
  Tray: TrayConstructor;
  Menu: Pick<MenuPort, "buildFromTemplate">;
  nativeImage: NativeImagePort;
  clipboard: ClipboardPort;
}

export interface TrayDeps {
  iconPath: string;
  endpoint: EndpointController;
  /** Reads the store; a failure shows "figures unavailable" instead of breaking the tray. */
  figures(): TrayFigures;
  /** The Claude Code config for a running endpoint whose MCP URL is `mcpUrl`. */
  claudeCodeConfig(url: string): string;
  settings(): DesktopSettings;
  updateSettings(patch: Partial<DesktopSettings>): void;
  openInspector(): void;
  quit(): void;
  /** Engine activity: the figures are re-read (at most once per `throttleMs`) when it fires. */
  onActivity?(listener: () => void): () => void;
  throttleMs?: number;
  onError?(message: string): void;
}

export interface TrayHandle {
  /** Rebuilds the menu and tooltip from the current state. */
  refresh(): void;
  /** The menu as last built (what the user sees), for tests and diagnostics. */
  template(): MenuItemSpec[];
  destroy(): void;
}

export function setupTray(electron: TrayElectron, deps: TrayDeps): TrayHandle {
  const tray: TrayInstance = new electron.Tray(electron.nativeImage.createFromPath(deps.iconPath) as never);
  let current: MenuItemSpec[] = [];
  let destroyed = false;
  let pending: ReturnType<typeof setTimeout> | null = null;

  const report = (msg: string) => deps.onError?.(msg);
  const run = (p: Promise<unknown>) => void p.catch((err: unknown) => report(String(err)));

  const readFigures = (): TrayFigures | null => {
    try {
      return deps.figures();
    } catch (err) {
      report(`tray figures: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  };

  const refresh = () => {
    if (destroyed) return;
    const status = deps.endpoint.status();
    const figures = readFigures();
    current = trayTemplate(status, figures, deps.settings(), {
      toggleEndpoint: () => run(deps.endpoint.toggle()),
      openInspector: deps.openInspector,
      copyEndpointUrl: () => {
        const url = deps.endpoint.status().mcpUrl;
        if (url) electron.clipboard.writeText(url);
      },
      copyClaudeCodeConfig: () => {
        const url = deps.endpoint.status().mcpUrl;
        if (url) electron.clipboard.writeText(deps.claudeCodeConfig(url));
      },
      setStartAtLogin: (on) => {
        deps.updateSettings({ startAtLogin: on });
        refresh();
      },
      setStartEndpointWithApp: (on) => {
        deps.updateSettings({ startEndpointWithApp: on });
        refresh();
      },
      quit: deps.quit,
    });
    tray.setContextMenu(electron.Menu.buildFromTemplate(current));
    tray.setToolTip(trayToolTip(status, figures));
  };

  const throttled = () => {
    if (pending || destroyed) return;
    pending = setTimeout(() => {
      pending = null;
      refresh();
    }, deps.throttleMs ?? 1000);
    pending.unref?.();
  };

  const offEndpoint = deps.endpoint.onChange(() => refresh());
  const offActivity = deps.onActivity?.(throttled) ?? (() => {});
  // Linux trays ignore click on the icon for most desktops; where it fires, it opens the window.
  tray.on("click", deps.openInspector);
  refresh();

  return {
    refresh,
    template: () => current,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      if (pending) clearTimeout(pending);
      offEndpoint();
      offActivity();
      tray.destroy();
    },
  };
}
