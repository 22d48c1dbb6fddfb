/**
 * Runs the real bundled main process (main/index.cjs, built by build/build-electron.mjs into a temp folder)
 * under Node with a stand-in for the electron module: proves the bundle loads as CommonJS, and
 * that main wires the scheme, the window, IPC, the tray and shutdown as designed, with a real
 * engine, a real endpoint on loopback and real HTTP requests. What it cannot prove (Chromium
 * honouring these settings) is left to app.spec.ts where an Electron binary exists.
 */
import Module, { createRequire } from "node:module";
import { createServer } from "node:net";
import { existsSync, readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildElectron, ROOT } from "../../build/build-electron.mjs";
import { fakeElectron } from "./fakeElectron";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

const untilAsync = async (cond: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

let dir: string;
let bundleDir: string;
let fake: ReturnType<typeof fakeElectron>;
const savedEnv = { ...process.env };
const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleInternals._load;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "spillway-main-"));
  mkdirSync(join(ROOT, "out"), { recursive: true });
  const renderer = join(dir, "renderer");
  mkdirSync(renderer);
  writeFileSync(join(renderer, "index.html"), "<!doctype html><title>Spillway Inspector</title>");
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ server: { port: await freePort() } }));
  // Inside the checkout (out/ is git-ignored) so the bundle finds better-sqlite3 and re2 in node_modules.
  bundleDir = mkdtempSync(join(ROOT, "out", ".test-main-"));
  const built = await buildElectron({ rendererDir: renderer, production: false, outDir: bundleDir });
  process.env.SPILLWAY_HOME = home;
  fake = fakeElectron({ userData: join(dir, "userData"), downloads: join(dir, "Downloads"), appPath: join(dir, "app") });
  const electronModule = fake.module;
  moduleInternals._load = function (request: string, ...rest: unknown[]) {
    return request === "electron" ? electronModule : originalLoad.call(this, request, ...rest);
  };
  createRequire(import.meta.url)(built.main);
  expect(fake.record.privileged).toEqual([
    expect.objectContaining({ scheme: "app", privileges: expect.objectContaining({ standard: true, secure: true }) }),
  ]);
  fake.ready();
  await until(() => fake.record.trays.length === 1);
});

afterAll(() => {
  moduleInternals._load = originalLoad;
  process.env = savedEnv;
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

describe("the bundled main process (under a stand-in electron)", () => {
  it("opens one locked-down window on the app:// bundle, with the bundled preload", () => {
    expect(fake.record.windows).toHaveLength(1);
    const w = fake.record.windows[0]!;
    expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(existsSync(w.options.webPreferences.preload)).toBe(true);
    // The sandboxed preload carries the operation names, not the request schemas (zod).
    const preload = readFileSync(w.options.webPreferences.preload, "utf8");
    expect(preload.length).toBeLessThan(16_384);
    expect(preload).toContain('"blobs.list"');
    expect(w.webContents.url).toBe("app://bundle/index.html");
    expect(w.webContents.openHandler!({ url: "https://x.example" })).toEqual({ action: "deny" });
    let granted: boolean | null = null;
    fake.record.permissionRequest!(w.webContents, "geolocation", (g: boolean) => (granted = g));
    expect(granted).toBe(false);
  });

  it("serves the renderer over app:// with the CSP, and refuses traversal", async () => {
    const handler = fake.record.protocolHandlers.get("app")!;
    const ok = await handler({ url: "app://bundle/index.html", method: "GET" });
    expect(await ok.text()).toContain("Spillway Inspector");
    expect(ok.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect((await handler({ url: "app://bundle/..%2f..%2fhome/config.json", method: "GET" })).status).toBe(403);
  });

  it("answers the window's IPC, refuses others, and starts and stops a real endpoint", async () => {
    const w = fake.record.windows[0]!;
    const own = { sender: { id: w.webContents.id }, senderFrame: { url: "app://bundle/index.html" } };
    const stranger = { sender: { id: 999 }, senderFrame: { url: "app://bundle/index.html" } };
    const call = (op: string, event: unknown, req: unknown = {}) =>
      fake.record.ipcHandlers.get(`spillway:op:${op}`)!(event, req) as Promise<any>;
    expect((await call("overview.get", stranger)).error.code).toBe("forbidden");
    expect((await call("blobs.get", own, { id: "nope" })).error.code).toBe("bad_request");
    const started = await call("endpoint.start", own);
    expect(started.ok).toBe(true);
    const res = await fetch(started.value.mcpUrl, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(401);
    // A tool result through the endpoint's hook API: rescued by the bundled engine, whose token
    // counts need the tokenizer tables core loads with a computed require.
    const token = (await call("endpoint.token", own)).value.token;
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}: compiled module src/mod${i}.ts`).join("\n");
    const hook = await fetch(`${started.value.url}/hooks/transform`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ session_id: "bundle-test", tool: "build", text }),
    });
    expect(hook.status).toBe(200);
    await until(() => fake.record.trays[0]!.menu[1].label.startsWith("1 session · 1 blob"));
    // Token counts land in the background, off the call's path: read until they are in.
    let overview: any;
    await untilAsync(async () => {
      overview = await call("overview.get", own);
      return overview?.value?.total?.returnedTokens > 0;
    });
    expect(overview.value.total.returnedTokens).toBeGreaterThan(1000);
    const tray = fake.record.trays[0]!;
    expect(tray.menu[0].label).toBe(`MCP endpoint running at ${started.value.mcpUrl}`);
    expect(w.webContents.sent.some(([ch, p]) => ch === "spillway:event" && (p as { event: string }).event === "endpoint")).toBe(true);
    const stop = tray.menu.find((i: { id?: string }) => i.id === "toggle-endpoint");
    expect(stop.label).toBe("Stop MCP endpoint");
    stop.click();
    await until(() => tray.menu[0].label === "MCP endpoint stopped");
    await expect(fetch(started.value.mcpUrl, { method: "POST", body: "{}" })).rejects.toThrow();
  });

  it("closes the window to the tray, and Quit stops everything before exiting", async () => {
    const w = fake.record.windows[0]!;
    let prevented = false;
    w.emit("close", { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    const tray = fake.record.trays[0]!;
    tray.menu.find((i: { id?: string }) => i.id === "quit").click();
    await until(() => fake.record.quitCalls >= 2);
    expect(tray.destroyed).toBe(true);
    expect(fake.record.ipcHandlers.size).toBe(0);
    expect(fake.record.protocolHandlers.size).toBe(0);
    expect(fake.record.errors).toEqual([]);
  });
});
