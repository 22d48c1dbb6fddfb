/**
 * What hosts the inspector: the engine plus the few things only the host knows (the endpoint's
 * state, where exports go). Web mode (`spillway serve`) and the Electron main process each
 * provide one.
 */
import type { Engine } from "../../engine/engineApi";
import type { ConnectSnippet, EndpointStatus, ExportTicket, ToolCatalog, ToolRun } from "../api/dto";

/** The MCP/hook endpoint as the inspector controls it. */
export interface EndpointControl {
  status(): EndpointStatus;
  /** Absent when this host cannot start or stop it (web mode: the page is served by it). */
  start?(): Promise<EndpointStatus>;
  stop?(): Promise<EndpointStatus>;
  /**
   * The bearer token agents use, for the desktop window's explicit "copy token" action. Absent in
   * web mode: a browser session must not turn into the permanent token (its cookie could be stolen).
   */
  token?(): string | null;
  /** Status changes (clients connecting, upstreams starting), pushed to the inspector. */
  onChange?(listener: (s: EndpointStatus) => void): () => void;
}

/** The upstream tools, as the MCP Inspector offers them: the catalog, and a tool run by hand through the proxy. */
export interface ToolHost {
  catalog(): Promise<ToolCatalog>;
  run(tool: string, args: Record<string, unknown>): Promise<ToolRun>;
}

export interface InspectorHost {
  engine: Engine;
  /** config.json the Settings view edits (`--config` or `$SPILLWAY_HOME/config.json`). */
  configPath: string;
  endpoint?: EndpointControl;
  /** The `spillway connect` snippets, when the CLI module providing them is present. */
  connectSnippets?: () => ConnectSnippet[] | Promise<ConnectSnippet[]>;
  /** Absent when this host runs no upstreams (the desktop app before its endpoint starts). */
  tools?: ToolHost;
  /** Makes a blob's text available outside: a one-time download link (web) or a saved file (desktop). */
  exportBlob(id: string, masked: boolean, filename: string): ExportTicket;
}

/** The status reported when the host gave no endpoint control. */
export function unknownEndpoint(note: string): EndpointStatus {
  return {
    running: false,
    url: null,
    mcpUrl: null,
    startedAt: null,
    mode: "web",
    canControl: false,
    tokenFile: null,
    canCopyToken: false,
    clients: [],
    upstreams: [],
    note,
  };
}
