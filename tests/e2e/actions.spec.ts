/** Pin and purge change the blob's state everywhere, including in another open tab (pushed events). */
import { expect, test } from "./fixtures";

test("pin and purge change the state everywhere", async ({ page, state }) => {
  const id = state.ids.csv;
  const hitsFor = `${state.main.url}/#/search?q=IKEA%20groceries%20settled`;
  await page.goto(hitsFor);
  await expect(page.getByTestId("search-hits").locator(`a[href^="#/blobs/${id}"]`).first()).toBeVisible();
  // A second tab keeps the pinned list open; it must update without a reload.
  const other = await page.context().newPage();
  await other.goto(`${state.main.url}/#/blobs?state=pinned`);
  await expect(other.getByTestId("blob-count")).toContainText(/\d/);
  const pinnedBefore = Number((await other.getByTestId("blob-count").textContent())!.replace(/\D/g, ""));
  // Headless background tabs have their timers throttled: keep the tab being driven in front.
  await page.bringToFront();

  await page.goto(`${state.main.url}/#/blobs/${id}`);
  await expect(page.getByTestId("blob-state")).toHaveText("live");
  await page.getByRole("button", { name: "Pin", exact: true }).click();
  await expect(page.getByTestId("blob-state")).toHaveText("pinned");
  await expect(other.locator(`[data-testid=blob-table] tr[data-id="${id}"]`)).toBeVisible();
  await expect(other.getByTestId("blob-count")).toContainText(`${pinnedBefore + 1} matching`);

  await page.goto(`${state.main.url}/#/overview`);
  await expect(page.getByTestId("card-blobs")).toContainText(`${pinnedBefore + 1} pinned`);

  await page.goto(`${state.main.url}/#/blobs/${id}`);
  await page.getByRole("button", { name: "Purge" }).click();
  await page.getByRole("button", { name: "Confirm purge" }).click();
  await expect(page.getByTestId("blob-state")).toHaveText("tombstoned");
  await expect(page.getByText("This blob is a tombstone (purged")).toBeVisible();
  // The other tab's pinned list loses it (a tombstone is unpinned), live.
  await expect(other.locator(`[data-testid=blob-table] tr[data-id="${id}"]`)).toHaveCount(0);
  await other.goto(`${state.main.url}/#/blobs?state=tombstoned`);
  await expect(other.locator(`[data-testid=blob-table] tr[data-id="${id}"]`)).toContainText("tombstoned");
  await other.close();

  await page.goto(`${state.main.url}/#/overview`);
  await expect(page.getByTestId("card-blobs")).toContainText("1 tombstoned");
  await page.goto(hitsFor);
  await expect(page.getByTestId("search-summary")).toBeVisible();
  await expect(page.getByTestId("search-hits").locator(`a[href^="#/blobs/${id}"]`)).toHaveCount(0);
});
