/**
 * A stand-in for the "electron" module, just big enough to run the bundled main process
 * (out/main/index.cjs) under Node: it records what main does (scheme, window, IPC handlers,
 * tray menu, menus) and lets a test drive app events. No Electron binary is needed.
 */
type Listener = (...args: any[]) => unknown;

class Emitter {
  listeners = new Map<string, Listener[]>();
  on(event: string, l: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
    return this;
  }
  once(event: string, l: Listener) {
    return this.on(event, l);
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
}

export function fakeElectron(opts: { userData: string; downloads: string; appPath: string }) {
  const record = {
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, (req: { url: string; method: string }) => Promise<Response>>(),
    ipcHandlers: new Map<string, Listener>(),
    windows: [] as FakeWindow[],
    trays: [] as FakeTray[],
    appMenu: null as unknown,
    clipboard: [] as string[],
    errors: [] as string[],
    exitCode: null as number | null,
    quitCalls: 0,
    permissionRequest: null as Listener | null,
  };
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));

  class FakeWebContents extends Emitter {
    static next = 1;
    id = FakeWebContents.next++;
    url = "";
    sent: unknown[][] = [];
    openHandler: Listener | null = null;
    getURL = () => this.url;
    send = (...args: unknown[]) => void this.sent.push(args);
    setWindowOpenHandler = (h: Listener) => void (this.openHandler = h);
    isDestroyed = () => false;
  }
  class FakeWindow extends Emitter {
    webContents = new FakeWebContents();
    visible = false;
    destroyed = false;
    constructor(readonly options: any) {
      super();
      record.windows.push(this);
      app.emit("web-contents-created", {}, this.webContents);
    }
    loadURL = async (url: string) => void (this.webContents.url = url);
    show = () => void (this.visible = true);
    hide = () => void (this.visible = false);
    focus = () => {};
    restore = () => {};
    isMinimized = () => false;
    isDestroyed = () => this.destroyed;
    destroy = () => {
      this.destroyed = true;
      this.emit("closed");
    };
  }
  class FakeTray {
    menu: any[] = [];
    tip = "";
    destroyed = false;
    constructor(readonly image: unknown) {
      record.trays.push(this);
    }
    setContextMenu(m: any) {
      this.menu = m;
    }
    setToolTip(t: string) {
      this.tip = t;
    }
    on() {
      return this;
    }
    destroy() {
      this.destroyed = true;
    }
  }

  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => ready,
    getPath: (name: string) => (name === "downloads" ? opts.downloads : opts.userData),
    getAppPath: () => opts.appPath,
    setLoginItemSettings: () => {},
    quit: () => {
      record.quitCalls++;
      const event = {
        defaultPrevented: false,
        preventDefault() {
          this.defaultPrevented = true;
        },
      };
      app.emit("before-quit", event);
      if (!event.defaultPrevented) app.emit("will-quit");
    },
    exit: (code: number) => void (record.exitCode = code),
  });

  const module = {
    app,
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => void (record.appMenu = m) },
    nativeImage: { createFromPath: (p: string) => ({ path: p }) },
    clipboard: { writeText: (t: string) => void record.clipboard.push(t) },
    dialog: { showErrorBox: (title: string, msg: string) => void record.errors.push(`${title}: ${msg}`) },
    ipcMain: {
      handle: (ch: string, l: Listener) => void record.ipcHandlers.set(ch, l),
      removeHandler: (ch: string) => void record.ipcHandlers.delete(ch),
    },
    protocol: {
      registerSchemesAsPrivileged: (s: unknown[]) => void record.privileged.push(...s),
      handle: (scheme: string, h: any) => void record.protocolHandlers.set(scheme, h),
      unhandle: (scheme: string) => void record.protocolHandlers.delete(scheme),
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => "gnome_libsecret",
      encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString("base64")}`),
      decryptString: (b: Buffer) => Buffer.from(b.toString().slice(4), "base64").toString(),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Listener) => void (record.permissionRequest = h),
        setPermissionCheckHandler: () => {},
      },
    },
  };
  return { module, record, app, ready: () => readyResolve() };
}
