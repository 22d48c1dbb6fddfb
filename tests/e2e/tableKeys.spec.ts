/** The virtualized tables answer the keyboard: arrows move the active row, Space selects it (blobs), Enter opens it. */
import { expect, test } from "./fixtures";

test("blobs table: arrows move, Space selects, Enter opens the active blob", async ({ page, state }) => {
  await page.goto(`${state.main.url}/#/blobs`);
  const table = page.getByTestId("blob-table");
  await expect(table.locator("tbody tr[data-id]").nth(2)).toBeVisible();
  await table.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const row = table.locator('tbody tr[aria-rowindex="4"]');
  await expect(row).toHaveAttribute("aria-selected", "true");
  await expect(table.locator('tbody tr[aria-selected="true"]')).toHaveCount(1);
  const id = await row.getAttribute("data-id");
  await page.keyboard.press(" ");
  await expect(row.getByRole("checkbox")).toBeChecked();
  await expect(table.getByRole("checkbox", { checked: true })).toHaveCount(1);
  await page.keyboard.press("ArrowUp");
  await expect(table.locator('tbody tr[aria-rowindex="3"]')).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`#/blobs/${id}$`));
});

test("sessions table: arrows move, Enter opens the active session, Home goes back to the first", async ({ page, state }) => {
  await page.goto(`${state.many.url}/#/sessions`);
  const table = page.getByTestId("sessions-table");
  await expect(table.locator("tbody tr[data-id]").nth(3)).toBeVisible();
  await table.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowDown");
  const row = table.locator('tbody tr[aria-rowindex="3"]');
  await expect(row).toHaveAttribute("aria-selected", "true");
  const id = await row.getAttribute("data-id");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`#/sessions/${id}$`));
});
