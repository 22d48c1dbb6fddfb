/**
 * The narrow slices of Electron's API that the main-process modules use. Modules take these as
 * parameters instead of importing "electron", so Node tests pass small fakes and only
 * electron/main.ts binds the real objects (tsc checks there that the real ones fit).
 * Methods use method syntax on purpose: their parameters stay bivariant, so Electron's richer
 * types (Menu, NativeImage, Event…) satisfy these opaque ones.
 */

/** One item of a tray or application menu; a subset of MenuItemConstructorOptions. */
export interface MenuItemSpec {
  id?: string;
  label?: string;
  type?: "normal" | "separator" | "submenu" | "checkbox";
  enabled?: boolean;
  checked?: boolean;
  accelerator?: string;
  role?:
    | "undo"
    | "redo"
    | "cut"
    | "copy"
    | "paste"
    | "selectAll"
    | "reload"
    | "toggleDevTools"
    | "quit"
    | "close"
    | "minimize"
    | "about"
    | "hide"
    | "unhide"
    | "front";
  submenu?: MenuItemSpec[];
  click?(): void;
}

/** An opaque built menu (Electron's Menu). */
export type BuiltMenu = object;

export interface MenuPort {
  buildFromTemplate(template: MenuItemSpec[]): BuiltMenu;
  setApplicationMenu(menu: BuiltMenu | null): void;
}

export interface NativeImagePort {
  createFromPath(path: string): object;
}

export interface ClipboardPort {
  writeText(text: string): void;
}

export interface TrayInstance {
  setContextMenu(menu: BuiltMenu | null): void;
  setToolTip(toolTip: string): void;
  on(event: "click", listener: () => void): unknown;
  destroy(): void;
}

export type TrayConstructor = new (image: never) => TrayInstance;

/** What setupWindow and the IPC sender check need from a webContents. */
export interface WebContentsPort {
  readonly id: number;
  getURL(): string;
  send(channel: string, ...args: unknown[]): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: "deny" }): void;
  on(event: "will-navigate" | "will-redirect", listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: "will-attach-webview", listener: (event: { preventDefault(): void }) => void): unknown;
  isDestroyed(): boolean;
}

export interface BrowserWindowInstance {
  readonly webContents: WebContentsPort;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  destroy(): void;
  on(event: "close", listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: "closed" | "ready-to-show", listener: () => void): unknown;
}

/** The part of BrowserWindowConstructorOptions Spillway sets; every security switch is explicit. */
export interface WindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  icon?: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    experimentalFeatures: false;
    webviewTag: false;
    navigateOnDragDrop: false;
    spellcheck: false;
    devTools: boolean;
  };
}

export type BrowserWindowConstructor = new (options: WindowOptions) => BrowserWindowInstance;

/** The IPC event as the handlers see it: who sent it. */
export interface IpcInvokeEvent {
  sender: { readonly id: number };
  senderFrame: { readonly url: string } | null;
}

export interface IpcMainPort {
  handle(channel: string, listener: (event: IpcInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** A protocol request: the URL is all the app:// handler reads (GET only). */
export interface ProtocolRequest {
  readonly url: string;
  readonly method: string;
}

export interface ProtocolPort {
  handle(scheme: string, handler: (request: ProtocolRequest) => Response | Promise<Response>): void;
  unhandle(scheme: string): void;
}

export interface SafeStoragePort {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** A session's permission switches, all closed by hardenSession. */
export interface SessionPort {
  setPermissionRequestHandler(handler: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | null): void;
  setPermissionCheckHandler(handler: ((wc: unknown, permission: string) => boolean) | null): void;
}
