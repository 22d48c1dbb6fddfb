import { describe, expect, it } from "vitest";
import type { BrowserWindowInstance, WebContentsPort, WindowOptions } from "../ports";
import { hardenSession } from "./hardenSession";
import { setupWindow } from "./setupWindow";
import { menuTemplate } from "../menu/setupMenu";
import { claimSingleInstance } from "../lifecycle/singleInstance";

type Listener = (...args: unknown[]) => void;

/** A fake BrowserWindow that records what setupWindow does to it. */
class FakeWindow implements BrowserWindowInstance {
  static created: FakeWindow[] = [];
  listeners = new Map<string, Listener[]>();
  wcListeners = new Map<string, Listener[]>();
  openHandler: ((d: { url: string }) => { action: "deny" }) | null = null;
  visible = false;
  destroyed = false;
  loaded: string | null = null;
  readonly webContents: WebContentsPort;
  constructor(readonly options: WindowOptions) {
    FakeWindow.created.push(this);
    this.webContents = {
      id: 40 + FakeWindow.created.length,
      getURL: () => this.loaded ?? "",
      send: () => {},
      setWindowOpenHandler: (h) => void (this.openHandler = h),
      on: (event: string, l: Listener) => void this.wcListeners.set(event, [...(this.wcListeners.get(event) ?? []), l]),
      isDestroyed: () => this.destroyed,
    } as WebContentsPort;
  }
  on(event: string, l: (...args: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l as Listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  navigate(event: "will-navigate" | "will-redirect", url: string): boolean {
    let prevented = false;
    for (const l of this.wcListeners.get(event) ?? []) l({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  destroy() {
    this.destroyed = true;
    this.emit("closed");
  }
}

function open(quitting = { value: false }) {
  FakeWindow.created = [];
  const handle = setupWindow(
    { BrowserWindow: FakeWindow },
    { preloadPath: "/app/out/preload/index.cjs", url: "app://bundle/index.html", isQuitting: () => quitting.value, devTools: false },
  );
  return { handle, quitting };
}

describe("the inspector window", () => {
  it("is created with isolation, sandbox, no Node and web security, and loads the app:// bundle", () => {
    const { handle } = open();
    handle.show();
    const w = FakeWindow.created[0]!;
    expect(w.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
      preload: "/app/out/preload/index.cjs",
    });
    expect(w.loaded).toBe("app://bundle/index.html");
    expect(handle.contentsId()).toBe(w.webContents.id);
  });

  it("denies window.open and navigation or redirects away from the bundle", () => {
    const { handle } = open();
    handle.show();
    const w = FakeWindow.created[0]!;
    expect(w.openHandler!({ url: "https://example.com" })).toEqual({ action: "deny" });
    expect(w.navigate("will-navigate", "https://evil.example/")).toBe(true);
    expect(w.navigate("will-navigate", "file:///etc/passwd")).toBe(true);
    expect(w.navigate("will-redirect", "http://127.0.0.1:7341/")).toBe(true);
    expect(w.navigate("will-navigate", "app://bundle/index.html#/blobs")).toBe(false);
  });

  it("closes to the tray until Quit, and shows the same window again", () => {
    const { handle, quitting } = open();
    const w = handle.show();
    (w as FakeWindow).emit("ready-to-show");
    let prevented = false;
    (w as FakeWindow).emit("close", { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect((w as FakeWindow).visible).toBe(false);
    expect(handle.show()).toBe(w);
    expect(FakeWindow.created).toHaveLength(1);
    quitting.value = true;
    prevented = false;
    (w as FakeWindow).emit("close", { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(false);
    w.destroy();
    expect(handle.current()).toBeNull();
  });

  it("refuses every permission request and check", () => {
    let request: ((wc: unknown, p: string, cb: (g: boolean) => void) => void) | null = null;
    let check: ((wc: unknown, p: string) => boolean) | null = null;
    hardenSession({ setPermissionRequestHandler: (h) => void (request = h), setPermissionCheckHandler: (h) => void (check = h) });
    let granted: boolean | null = null;
    request!(null, "media", (g) => (granted = g));
    expect(granted).toBe(false);
    expect(check!(null, "clipboard-read")).toBe(false);
  });

  it("keeps one instance: a second launch quits and the first shows its window", () => {
    const calls: string[] = [];
    let second: (() => void) | null = null;
    const app = (locked: boolean) => ({
      requestSingleInstanceLock: () => locked,
      on: (_e: "second-instance", l: () => void) => void (second = l),
      quit: () => void calls.push("quit"),
    });
    expect(claimSingleInstance(app(false), () => calls.push("show"))).toBe(false);
    expect(calls).toEqual(["quit"]);
    expect(claimSingleInstance(app(true), () => calls.push("show"))).toBe(true);
    second!();
    expect(calls).toEqual(["quit", "show"]);
  });

  it("offers an Edit menu (copy and paste) and no dev tools in a release", () => {
    const t = menuTemplate({ platform: "linux", devTools: false, openInspector: () => {}, quit: () => {} });
    expect(t.map((m) => m.label)).toEqual(["File", "Edit", "View"]);
    expect(JSON.stringify(t)).not.toContain("toggleDevTools");
    expect(t[1]!.submenu!.map((i) => i.role)).toContain("paste");
  });
});
