/**
 * `spillway serve` stops while the inspector is open: the page says at once that the server does
 * not answer, keeps trying, and recovers by itself when a server answers again (no reload): the
 * sign-in view when the new serve does not know the session (sessions end when serve stops),
 * fresh data when the same server answers again. A serve of its own, so the shared ones keep running.
 */
import type { Page } from "@playwright/test";
import { createEngine } from "../../core/engine/engine";
import { memoryLogger } from "../../core/runtime";
import { writeConfig } from "../mcp/helpers/setup";
import { expect, expectAccessible, ownServe, shoot, test, type OwnServe } from "./fixtures";
import { newLoginUrl, startServe, type Served } from "./support/serve";

const SESSION = "gone-and-back";

/** One live session with one tool call, so the views have something to show. */
async function seed(home: string): Promise<void> {
  writeConfig(home, {});
  const engine = createEngine({ home, logger: memoryLogger() });
  engine.touchSession(SESSION, "claude-code");
  engine.transformToolResult({ sessionId: SESSION, tool: "read_file", text: "hello from the tool\n" });
  await engine.idle();
  await engine.close();
}

let own: OwnServe;
let home: string;
let served: Served;
let page: Page;
let problems: string[];

test.beforeAll(async ({ browser }) => {
  own = await ownServe(browser, "spillway-gone-", seed);
  ({ home, served, page, problems } = own);
});
test.afterAll(async () => {
  // The serve the tests last started (they restart it): the one own.close() stops.
  if (own) own.served = served;
  await own?.close();
});

/** What a stopped server and a refused session make the browser log; anything else is a fault. */
const unexpected = () => problems.filter((p) => !/ERR_CONNECTION_REFUSED|status of 401|status 401/.test(p));

test("serve stops: the sidebar and a banner say the server does not answer; serve starts again: the page asks to sign in, without a reload", async () => {
  await page.goto(await newLoginUrl(served));
  const dot = page.getByTestId("endpoint-dot");
  const banner = page.getByRole("alert").filter({ hasText: "The Spillway server does not answer" });
  await expect(page.getByTestId("card-calls")).toContainText("1");
  await expect(dot).toHaveText("endpoint running");
  await expect(banner).toHaveCount(0);
  // Survives only as long as the page is not reloaded.
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const port = Number(new URL(served.url).port);
  await served.stop();
  // At once: the stream breaks and a call finds nobody (well under the stream's own 2 s retry, plus slack).
  await expect(dot).toHaveText("endpoint unreachable", { timeout: 4_000 });
  await expect(dot.locator(".live-dot")).not.toHaveClass(/\bon\b/);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Was spillway serve stopped?");
  await expect(banner).toContainText("reconnects by itself");
  await expectAccessible(page, "server gone");
  await shoot(page, "server-gone");
  // A view opened meanwhile: the banner stays, whatever the view shows.
  await page.getByRole("link", { name: /^Sessions/ }).click();
  await expect(banner).toBeVisible();

  // The same home on the same port: a new process, which knows no session of the old one.
  served = await startServe(home, [], port);
  await expect(page.getByRole("heading", { name: "Sign in to this Spillway inspector" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("main")).toContainText("sessions end when spillway serve stops");
  await expect(page.getByRole("main")).toContainText(`${served.url}/login?t=…`);
  await expect(banner).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expectAccessible(page, "signed out by a restart");

  // The link the new serve printed signs the browser in again.
  await page.goto(await newLoginUrl(served));
  await expect(page.getByTestId("card-calls")).toContainText("1");
  await expect(dot).toHaveText("endpoint running");
  expect(unexpected()).toEqual([]);
});

test("the server answers again with the session still good: the banner goes and every view refreshes, without a reload", async () => {
  // On its own too: a serve that runs, and a page signed in to it.
  if (served.proc.exitCode !== null) served = await startServe(home);
  await page.goto(await newLoginUrl(served));
  await page.goto(`${served.url}/#/sessions`);
  const dot = page.getByTestId("endpoint-dot");
  const banner = page.getByRole("alert").filter({ hasText: "The Spillway server does not answer" });
  const table = page.getByTestId("sessions-table");
  await expect(table).toContainText("claude-code");
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  // Calls from this page find nobody (the open event stream stays up, as over a flaky link)...
  await page.route("**/api/**", (route) => route.abort("connectionrefused"));
  // ...when an agent's session arrives (another process writes the same store): the pushed
  // nudge makes the list refresh, and that call fails.
  const engine = createEngine({ home, logger: memoryLogger() });
  engine.touchSession("arrived-meanwhile", "codex");
  engine.transformToolResult({ sessionId: "arrived-meanwhile", tool: "grep", text: "a match\n" });
  await engine.idle();
  await engine.close();
  await expect(dot).toHaveText("endpoint unreachable", { timeout: 6_000 });
  await expect(banner).toBeVisible();
  // What was there stays on screen (marked out of date by the banner).
  await expect(table).toContainText("claude-code");
  await expect(table).not.toContainText("codex");

  // The server answers again: the page notices by itself and refreshes the view on screen.
  await page.unroute("**/api/**");
  await expect(banner).toHaveCount(0, { timeout: 10_000 });
  await expect(dot).toHaveText("endpoint running");
  await expect(table).toContainText("codex");
  await page.getByRole("link", { name: /^Overview/ }).click();
  await expect(page.getByTestId("card-calls")).toContainText("2");
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(unexpected()).toEqual([]);
});
