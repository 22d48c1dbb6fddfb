/**
 * The fixtures every spec uses: requests to anything but 127.0.0.1 are aborted (and counted
 * as failures), page errors and console errors fail the test; helpers for axe and for
 * screenshots in both themes.
 */
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServe, type Served } from "./support/serve";
import { e2eState, SCREENSHOTS, STORAGE_FILE, type E2EState } from "./support/state";

interface TestFixtures {
  state: E2EState;
}
interface WorkerFixtures {
  app: { page: Page; problems: string[] };
}

/**
 * One signed-in page for the whole run (the specs run in one worker): each test navigates it,
 * so the inspector is loaded once, as a user keeps it open. `page` is that page, and a test
 * fails if it caused an external request, a page error or a console error.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  app: [
    async ({ browser }, use) => {
      const context = await browser.newContext({
        storageState: STORAGE_FILE,
        viewport: { width: 1440, height: 900 },
        colorScheme: "light",
      });
      const problems = await guard(context);
      const page = await context.newPage();
      await use({ page, problems });
      await context.close();
    },
    { scope: "worker" },
  ],
  page: async ({ app }, use) => {
    const before = app.problems.length;
    await use(app.page);
    expect(app.problems.slice(before), "external requests, page errors or console errors").toEqual([]);
  },
  // oxlint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  state: async ({}, use) => use(e2eState()),
});

/** Aborts every request that is not to 127.0.0.1 and records it, with page and console errors. */
export async function guard(context: BrowserContext): Promise<string[]> {
  const problems: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
    problems.push(`external request: ${url.href}`);
    return route.abort();
  });
  context.on("page", (page) => watch(page, problems));
  return problems;
}

function watch(page: Page, problems: string[]): void {
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    // A 401 the app handles (the login test) is expected; anything else logged as an error is not.
    if (m.type() === "error" && !/401 \(Unauthorized\)/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });
}

export { expect };

/** A spec's own `spillway serve` on a fresh home (`seed` fills it first) and a guarded, signed-out context and page of its own. */
export interface OwnServe {
  home: string;
  served: Served;
  context: BrowserContext;
  page: Page;
  problems: string[];
  /** Closes the context, stops the serve (`served`, as the spec last set it) and removes the home. */
  close(): Promise<void>;
}

/** For specs that must leave the shared stores' figures as they are. */
export async function ownServe(browser: Browser, prefix: string, seed: (home: string) => Promise<void>): Promise<OwnServe> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const home = join(dir, "home");
  await seed(home);
  const served = await startServe(home);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: [], origins: [] } });
  const problems = await guard(context);
  const page = await context.newPage();
  const own: OwnServe = {
    home,
    served,
    context,
    page,
    problems,
    async close() {
      await context.close();
      await own.served.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return own;
}

/** Axe on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Only violations are collected: listing every passing node makes a run several times slower.
  const r = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .options({ resultTypes: ["violations"] })
    .analyze();
  const bad = r.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(" | ")}`,
  );
  expect(summary, `axe on ${what}`).toEqual([]);
}

/** Screenshots of the current view in light and dark, then back to light. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
    // Two frames: React has applied the theme and the browser has painted it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}
