/** The tray menu as data: a pure function of the endpoint's state and the store's figures. */
import type { EndpointState } from "../endpoint/endpointController";
import type { MenuItemSpec } from "../ports";
import type { DesktopSettings } from "../settings/settings";
import { ESTIMATE_MARK } from "../../core/vocabulary";

/** What the status line shows besides the endpoint; null when the store could not be read. */
export interface TrayFigures {
  sessions: number;
  blobs: number;
  tokensSavedToday: number;
  /** Some of today's token counts were estimated from a sample (big results): the figure is marked ≈. */
  tokensEstimated?: boolean;
}

export interface TrayActions {
  toggleEndpoint(): void;
  openInspector(): void;
  copyEndpointUrl(): void;
  copyClaudeCodeConfig(): void;
  setStartAtLogin(on: boolean): void;
  setStartEndpointWithApp(on: boolean): void;
  quit(): void;
}

/** Stable ids, so tests (and later menu updates) find items by role, not by label text. */
export const TRAY_ITEM = {
  status: "status",
  figures: "figures",
  error: "error",
  toggle: "toggle-endpoint",
  open: "open-inspector",
  copyUrl: "copy-url",
  copyConfig: "copy-claude-config",
  startAtLogin: "start-at-login",
  startWithApp: "start-endpoint-with-app",
  quit: "quit",
} as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function compactTokens(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (abs >= 10_000) return `${Math.round(n / 1000)}k`;
  return n.toLocaleString("en-US");
}

export function statusLine(status: EndpointState): string {
  switch (status.phase) {
    case "running":
      return `MCP endpoint running at ${status.mcpUrl}`;
    case "starting":
      return "MCP endpoint starting…";
    case "stopping":
      return "MCP endpoint stopping…";
    default:
      return "MCP endpoint stopped";
  }
}

export function figuresLine(f: TrayFigures | null): string {
  if (!f) return "Store figures unavailable";
  return `${count(f.sessions, "session", "sessions")} · ${count(f.blobs, "blob", "blobs")} · ${f.tokensEstimated ? ESTIMATE_MARK : ""}${compactTokens(f.tokensSavedToday)} tokens saved today`;
}

/** The tooltip: the same facts in one line. */
export function trayToolTip(status: EndpointState, f: TrayFigures | null): string {
  return `Spillway: ${statusLine(status)}${f ? ` · ${figuresLine(f)}` : ""}`;
}

export function trayTemplate(
  status: EndpointState,
  figures: TrayFigures | null,
  settings: DesktopSettings,
  a: TrayActions,
): MenuItemSpec[] {
  const busy = status.phase === "starting" || status.phase === "stopping";
  const items: MenuItemSpec[] = [
    { id: TRAY_ITEM.status, label: statusLine(status), enabled: false },
    { id: TRAY_ITEM.figures, label: figuresLine(figures), enabled: false },
  ];
  if (status.error) items.push({ id: TRAY_ITEM.error, label: status.error, enabled: false });
  items.push(
    { type: "separator" },
    {
      id: TRAY_ITEM.toggle,
      label: status.running || status.phase === "stopping" ? "Stop MCP endpoint" : "Start MCP endpoint",
      enabled: !busy,
      click: a.toggleEndpoint,
    },
    { id: TRAY_ITEM.open, label: "Open Inspector", click: a.openInspector },
    { id: TRAY_ITEM.copyUrl, label: "Copy endpoint URL", enabled: status.running, click: a.copyEndpointUrl },
    { id: TRAY_ITEM.copyConfig, label: "Copy Claude Code config", enabled: status.running, click: a.copyClaudeCodeConfig },
    { type: "separator" },
    {
      id: TRAY_ITEM.startAtLogin,
      label: "Start Spillway at login",
      type: "checkbox",
      checked: settings.startAtLogin,
      click: () => a.setStartAtLogin(!settings.startAtLogin),
    },
    {
      id: TRAY_ITEM.startWithApp,
      label: "Start the endpoint with Spillway",
      type: "checkbox",
      checked: settings.startEndpointWithApp,
      click: () => a.setStartEndpointWithApp(!settings.startEndpointWithApp),
    },
    { type: "separator" },
    { id: TRAY_ITEM.quit, label: "Quit Spillway", click: a.quit },
  );
  return items;
}
