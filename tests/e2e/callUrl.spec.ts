/**
 * A session's open calls are in its URL: a call can be linked and bookmarked, a reload keeps what
 * was open, and Back and Forward close and reopen calls in the order they were opened.
 */
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { LONG_CALLS } from "./support/longSession";

const rows = (page: Page) => page.getByTestId("call-row");
const detail = (page: Page, id: string) => page.locator(`[id="call-${id}"]`).getByTestId("call-detail");

test("an opened call is in the URL; reload, Back and Forward restore it", async ({ page, state }) => {
  const base = `${state.main.url}/#/sessions/${state.ids.gamma}`;
  await page.goto(base);
  await expect(rows(page)).toHaveCount(LONG_CALLS);
  const third = rows(page).nth(2);
  const fifth = rows(page).nth(4);
  const a = (await third.getAttribute("data-call-id"))!;
  const b = (await fifth.getAttribute("data-call-id"))!;
  const url = (q: string) => new RegExp(`#/sessions/${state.ids.gamma}${q.replace(/[?]/g, "\\?")}$`);

  await third.getByRole("button").first().click();
  await expect(page).toHaveURL(url(`?call=${a}`));
  await expect(detail(page, a)).toBeVisible();
  await fifth.getByRole("button").first().click();
  await expect(page).toHaveURL(url(`?call=${b}&open=${a}`));
  await expect(detail(page, b)).toBeVisible();
  await expect(detail(page, a)).toBeVisible();

  // A reload keeps both open.
  await page.reload();
  await expect(fifth).toHaveAttribute("data-open", "true");
  await expect(third).toHaveAttribute("data-open", "true");
  await expect(detail(page, b)).toBeVisible();
  await expectAccessible(page, "session with calls open from the URL");

  // Back closes the call opened last, then the first; Forward opens them again.
  await page.goBack();
  await expect(page).toHaveURL(url(`?call=${a}`));
  await expect(fifth).toHaveAttribute("data-open", "false");
  await expect(third).toHaveAttribute("data-open", "true");
  await page.goBack();
  await expect(page).toHaveURL(url(""));
  await expect(third).toHaveAttribute("data-open", "false");
  await expect(page.getByTestId("call-detail")).toHaveCount(0);
  await page.goForward();
  await expect(third).toHaveAttribute("data-open", "true");
  await page.goForward();
  await expect(fifth).toHaveAttribute("data-open", "true");

  // Closing the call the URL names points it at the one opened before.
  await fifth.getByRole("button").first().click();
  await expect(page).toHaveURL(url(`?call=${a}`));
  await expect(fifth).toHaveAttribute("data-open", "false");
  await third.getByRole("button").first().click();
  await expect(page).toHaveURL(url(""));
});

test("a link to a call far down the session opens it and scrolls it into view", async ({ page, state }) => {
  await page.goto(`${state.main.url}/#/sessions/${state.ids.gamma}`);
  await expect(rows(page)).toHaveCount(LONG_CALLS);
  const last = (await rows(page).last().getAttribute("data-call-id"))!;
  await page.goto(`${state.main.url}/#/overview`);
  await page.goto(`${state.main.url}/#/sessions/${state.ids.gamma}?call=${last}`);
  await expect(rows(page).last()).toHaveAttribute("data-open", "true");
  await expect(detail(page, last)).toBeInViewport();
});
