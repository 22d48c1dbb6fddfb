/** Web-mode sign-in: no session shows how to sign in; a one-time link signs in once. */
import { expect, expectAccessible, guard, shoot, test } from "./fixtures";
import { newLoginUrl } from "./support/serve";

test("a one-time login link signs the browser in, once", async ({ browser, state }) => {
  // Contexts made in a test inherit the config's signed-in storage: start from none.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: [], origins: [] } });
  const problems = await guard(context);
  const page = await context.newPage();
  await page.goto(`${state.main.url}/`);
  await expect(page.getByRole("heading", { name: "Sign in to this Spillway inspector" })).toBeVisible();
  // The link it describes is this server's, on whatever port serve was given.
  await expect(page.getByRole("main")).toContainText(`${state.main.url}/login?t=…`);
  await expectAccessible(page, "login");
  await shoot(page, "login");

  const link = await newLoginUrl(state.main);
  await page.goto(link);
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByTestId("card-calls")).toContainText(/\d/);
  // The tab's icon is the app's own, served beside the page (no /favicon.ico 404).
  const icon = await page.locator('link[rel="icon"]').getAttribute("href");
  const served = await page.request.get(new URL(icon!, page.url()).href);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  const cookie = (await context.cookies()).find((c) => c.name.startsWith("spillway_session_"))!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  expect(await page.evaluate(() => document.cookie)).toBe("");

  const again = await context.newPage();
  const r = await again.goto(link);
  expect(r?.status()).toBe(403);
  await context.close();
  // The 401s before signing in and the 403 of the spent link are expected; nothing else went wrong.
  expect(problems.filter((p) => !/status of 40[13]|status 401/.test(p))).toEqual([]);
});

test("signing out ends the session on the server: the page shows how to sign in again, and the old cookie is refused", async ({
  browser,
  state,
}) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: { cookies: [], origins: [] } });
  const problems = await guard(context);
  const page = await context.newPage();
  await page.goto(await newLoginUrl(state.main));
  await expect(page.getByTestId("card-calls")).toContainText(/\d/);
  const cookie = (await context.cookies()).find((c) => c.name.startsWith("spillway_session_"))!;

  // The Endpoint page says where the token is; it has no way to show or copy the token itself.
  await page.goto(`${state.main.url}/#/endpoint`);
  await expect(page.getByTestId("endpoint-token")).toContainText(`${state.main.home}/token`);
  await expect(page.getByRole("button", { name: "Copy token" })).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Signed out of this Spillway inspector" })).toBeVisible();
  expect((await context.cookies()).filter((c) => c.name === cookie.name)).toEqual([]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to this Spillway inspector" })).toBeVisible();

  // A copy of the cookie taken before signing out, sent as the page would send it: refused.
  const r = await fetch(`${state.main.url}/api/overview.get`, {
    method: "POST",
    headers: { cookie: `${cookie.name}=${cookie.value}`, origin: state.main.url, "content-type": "application/json" },
    body: "{}",
  });
  expect(r.status).toBe(401);
  await context.close();
  expect(problems.filter((p) => !/status of 401|status 401/.test(p))).toEqual([]);
});
