/**
 * The desktop window without Electron: the real built renderer, in Debian's Chromium, served by
 * the app:// handler (its files and its CSP header, behind a loopback HTTP shim), talking to the
 * real desktop host through the preload's generated API and the IPC handlers (handleInvoke),
 * with Playwright's exposeFunction standing in for ipcRenderer.invoke. What this cannot cover is
 * Electron itself (sandbox, contextIsolation, the real IPC); app.spec.ts does, given a binary.
 */
import { chromium, expect, test, type Browser, type Page } from "@playwright/test";
import { build } from "esbuild";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requestSchemas, type OpName } from "../../core/inspector/api/contract";
import { memoryLogger } from "../../core/runtime";
import { buildRenderer, findViteConfig, rendererOutDir, ROOT } from "../../build/build-electron.mjs";
import { invokeChannel } from "../../electron/ipc/channels";
import { handleInvoke } from "../../electron/ipc/setupIpc";
import { createDesktopHost, type DesktopHost } from "../../electron/host/desktopHost";
import { createAppProtocolHandler } from "../../electron/protocol/setupProtocol";

const CHROMIUM = "/usr/bin/chromium";
test.skip(!existsSync(CHROMIUM) || !findViteConfig(), "needs Debian's chromium and the renderer's Vite config");
// One window, one story: later steps rely on the page the earlier ones opened.
test.describe.configure({ mode: "serial" });

let dir: string;
let host: DesktopHost;
let shim: Server;
let base: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** The preload's API for a page: the generated methods, with invoke going to the test process. */
async function preloadScript(): Promise<string> {
  const entry = `
    import { buildInspectorApi } from "./electron/preload/buildApi";
    import { requestSchemas } from "./core/inspector/api/contract";
    const listeners = new Set();
    window.__spillwayPush = (p) => { for (const l of listeners) l(p); };
    window.spillway = buildInspectorApi(Object.keys(requestSchemas), (ch, req) => window.__spillwayInvoke(ch, req),
      (l) => { listeners.add(l); return () => listeners.delete(l); });
    document.addEventListener("securitypolicyviolation", (e) => console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI));`;
  const out = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

test.beforeAll(async () => {
  const config = findViteConfig()!;
  const rendererDir = existsSync(join(await rendererOutDir(config), "index.html"))
    ? await rendererOutDir(config)
    : await buildRenderer(config);
  dir = mkdtempSync(join(tmpdir(), "spillway-desk-"));
  host = createDesktopHost({
    home: join(dir, "home"),
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => "" },
    logger: memoryLogger(),
    downloadsDir: () => join(dir, "Downloads"),
    appRoot: ROOT,
    port: 0,
  });
  const text = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i, name: `item ${i}`, tags: ["a", "b"] })).join("\n");
  host.engine.transformToolResult({ sessionId: "desk-session", tool: "list_items", text });
  await host.engine.idle();

  const serve = createAppProtocolHandler(rendererDir);
  shim = createServer(async (req, res) => {
    const r = await serve({ url: `app://bundle${req.url}`, method: req.method ?? "GET" });
    res.writeHead(r.status, Object.fromEntries(r.headers));
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((resolve) => shim.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(shim.address() as { port: number }).port}`;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  page = await browser.newPage();
  // Chromium asks for /favicon.ico on its own; every other failed load is a problem, named by URL.
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && problems.push(m.text()));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && problems.push(`${r.status()} ${r.url()}`));
  page.on("pageerror", (e) => problems.push(e.message));
  const byChannel = new Map((Object.keys(requestSchemas) as OpName[]).map((op) => [invokeChannel(op), op]));
  const fromWindow = { sender: { id: 1 }, senderFrame: { url: "app://bundle/index.html" } };
  await page.exposeFunction("__spillwayInvoke", (channel: string, req: unknown) =>
    handleInvoke(byChannel.get(channel)!, { dispatch: host.dispatch, isTrustedSender: () => true }, fromWindow, req),
  );
  await page.addInitScript({ content: await preloadScript() });
  host.endpointControl.onChange?.(
    (data) =>
      void page
        .evaluate((d) => (window as unknown as { __spillwayPush(p: unknown): void }).__spillwayPush({ event: "endpoint", data: d }), data)
        .catch(() => {}),
  );
});

test.afterAll(async () => {
  await browser?.close();
  shim?.close();
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the inspector renders over the preload API under the app:// CSP", async () => {
  const res = await page.goto(`${base}/index.html`);
  expect(res!.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByRole("navigation", { name: "Inspector" })).toBeVisible();
  await expect(page.getByTestId("endpoint-dot")).toContainText("endpoint stopped");
  await page.getByRole("link", { name: /Blobs/ }).click();
  await expect(page.locator("td", { hasText: "list_items" }).first()).toBeVisible();
  expect(problems).toEqual([]);
});

test("the Endpoint view starts and stops the real endpoint", async () => {
  await page.getByRole("link", { name: /Endpoint/ }).click();
  // The app's own window may copy the token (web mode's pages never can); it has no session to sign out of.
  await expect(page.getByTestId("endpoint-token")).toContainText(join(dir, "home", "token"));
  await expect(page.getByRole("button", { name: "Copy token" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await page.getByRole("button", { name: "Start endpoint" }).click();
  await expect(page.getByRole("button", { name: "Stop endpoint" })).toBeVisible();
  const url = host.endpoint.status().mcpUrl!;
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(r.status).toBe(401);
  await page.getByRole("button", { name: "Stop endpoint" }).click();
  await expect(page.getByRole("button", { name: "Start endpoint" })).toBeVisible();
  expect(host.endpoint.status().running).toBe(false);
  await expect(fetch(url, { method: "POST", body: "{}" })).rejects.toThrow();
  expect(problems).toEqual([]);
});

test("a blob opens in the viewer (Monaco and its workers) without CSP violations", async () => {
  await page.getByRole("link", { name: /Blobs/ }).click();
  await page.locator("a.mono").first().click();
  await expect(page.locator(".monaco-editor .view-lines").first()).not.toBeEmpty({ timeout: 20_000 });
  await page.screenshot({ path: test.info().outputPath("blob-view.png") });
  expect(problems).toEqual([]);
});
