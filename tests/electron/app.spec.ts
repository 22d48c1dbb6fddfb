/**
 * The real desktop app, end to end, with Playwright's `_electron`: launch the bundled main
 * process, see the inspector in its window, start and stop the MCP endpoint with the Endpoint
 * view's button (over the preload API and IPC) and check it with real HTTP requests. Skipped, with the reason, where no Electron binary exists (it cannot be
 * downloaded on the project's machines).
 */
import { _electron as electron, expect, test, type ElectronApplication, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildElectron, buildRenderer, findViteConfig, ROOT } from "../../build/build-electron.mjs";
import { findElectronBinary } from "../../build/electronBinary.mjs";

const binary = findElectronBinary(ROOT);
test.skip(!binary.path, `no Electron binary on this machine: ${binary.reason ?? ""}`);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** What the page's `window.spillway` answers, seen from the test. */
type Envelope = { ok: boolean; value?: { running: boolean; mcpUrl: string | null }; error?: { code: string } };

let app: ElectronApplication;
let page: Page;
let dir: string;

test.beforeAll(async () => {
  const config = findViteConfig();
  const rendererDir = config ? await buildRenderer(config) : undefined;
  const built = await buildElectron({ rendererDir, production: false });
  dir = mkdtempSync(join(tmpdir(), "spillway-e2e-"));
  const home = join(dir, "home");
  mkdirSync(home);
  writeFileSync(join(home, "config.json"), JSON.stringify({ server: { port: await freePort() } }));
  app = await electron.launch({
    executablePath: binary.path!,
    args: [built.main],
    env: { ...process.env, SPILLWAY_HOME: home, SPILLWAY_APP_ROOT: ROOT },
  });
  page = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the window shows the inspector from app://, isolated from Node, with the CSP", async () => {
  await expect(page).toHaveURL(/^app:\/\/bundle\//);
  await expect(page.locator("body")).not.toBeEmpty();
  expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe("undefined");
  expect(await page.evaluate(() => typeof (window as unknown as { process?: unknown }).process)).toBe("undefined");
  const api = await page.evaluate(() => Object.keys((window as unknown as { spillway: object }).spillway).toSorted());
  expect(api).toEqual(expect.arrayContaining(["blobs", "endpoint", "subscribe"]));
  expect(api).not.toContain("invoke");
  const csp = await page.evaluate(() => fetch(location.href).then((r) => r.headers.get("content-security-policy")));
  expect(csp).toContain("script-src 'self'");
  // window.open is denied: no second window appears.
  await page.evaluate(() => window.open("https://example.com"));
  expect(app.windows()).toHaveLength(1);
});

test("the endpoint starts and stops from the Endpoint view, and really listens only while running", async () => {
  const status = () =>
    page.evaluate(() =>
      (window as unknown as { spillway: { endpoint: { status(r: object): Promise<unknown> } } }).spillway.endpoint.status({}),
    ) as Promise<Envelope>;
  await page.getByRole("link", { name: /Endpoint/ }).click();
  await page.getByRole("button", { name: "Start endpoint" }).click();
  await expect(page.getByRole("button", { name: "Stop endpoint" })).toBeVisible();
  const url = (await status()).value!.mcpUrl!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(res.status).toBe(401);
  await expect(page.getByTestId("endpoint-dot")).toContainText("endpoint running");
  await page.getByRole("button", { name: "Stop endpoint" }).click();
  await expect(page.getByRole("button", { name: "Start endpoint" })).toBeVisible();
  expect((await status()).value!.running).toBe(false);
  await expect(fetch(url, { method: "POST", body: "{}" })).rejects.toThrow();
});

test("closing the window hides it to the tray instead of quitting", async () => {
  await page.evaluate(() => window.close());
  await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.isVisible()))).toEqual([false]);
});
