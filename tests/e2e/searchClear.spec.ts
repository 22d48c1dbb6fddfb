/** The global search: an emptied box and Enter is no query, not the last query's results. */
import { expect, expectAccessible, test } from "./fixtures";

test("clearing the search box and pressing Enter shows the empty state; Back brings the results again", async ({ page, state }) => {
  await page.goto(`${state.main.url}/#/search?q=disk%20quota%20exceeded`);
  const hits = page.getByTestId("search-hits");
  await expect(hits.locator("li").first()).toContainText(state.ids.bigLog);
  const box = page.getByLabel("Search all stored results");
  await box.fill("");
  await box.press("Enter");
  await expect(page).toHaveURL(/#\/search$/);
  await expect(page.getByText("Plain words, ranked by BM25")).toBeVisible();
  await expect(hits).toHaveCount(0);
  await expect(page.getByTestId("search-summary")).toHaveCount(0);
  await expectAccessible(page, "search cleared");
  // Spaces only are no query either.
  await box.fill("   ");
  await box.press("Enter");
  await expect(page).toHaveURL(/#\/search$/);
  await expect(hits).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(/#\/search\?q=disk/);
  await expect(box).toHaveValue("disk quota exceeded");
  await expect(hits.locator("li").first()).toContainText(state.ids.bigLog);
});
